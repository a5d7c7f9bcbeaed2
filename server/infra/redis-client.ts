import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Longest wait for one Redis command. Redis answers in well under a millisecond; past this it is
 * stalled (stopped, partitioned, swapping) and the request goes on without it.
 */
const REDIS_COMMAND_TIMEOUT_MS = 1_000;

/**
 * The shared Redis client of an instance (rate-limit counters, the lookup caches' epoch), built so
 * that a Redis that stops answering behaves like one that refuses connections:
 * - every command gives up after `REDIS_COMMAND_TIMEOUT_MS` (`commandTimeout`), so no request
 *   waits longer than that for Redis;
 * - a connection that receives nothing for twice that while commands wait is dropped
 *   (`socketTimeout`); with the offline queue off, commands then fail at once while ioredis
 *   reconnects, and every caller takes its documented fallback (in-memory limits, caches bypassed)
 *   without waiting at all;
 * - reconnection retries every few hundred milliseconds (a connect attempt itself gives up after
 *   2 s), so the instance returns to Redis as soon as it answers again.
 * ioredis is loaded here only, so the embedded default never loads it.
 */
export async function createRedisClient(url: string, logger?: Logger): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    socketTimeout: 2 * REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2 * REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(100 * attempt, 1_000),
    // Commands issued in the same tick (the rate-limit script of every request in flight) leave
    // in one socket write: the profile showed one write per command at 9 % of CPU.
    enableAutoPipelining: true,
  });
  // One line when Redis goes away and one when it is back, not one per reconnect attempt.
  let down = false;
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    logger?.warn(
      { redisError: err.message },
      'redis unavailable; rate limits fall back to this instance, shared caches are bypassed',
    );
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger?.info('redis answers again; shared rate limits and caches resume');
  });
  return redis;
}
