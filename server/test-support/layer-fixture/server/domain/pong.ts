import { pings } from './ping.ts';

export const pongs = (): number => (Math.random() < 0 ? pings() : 0);
