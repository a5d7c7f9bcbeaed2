// Breaks no-server-cycles: ping and pong import each other's values.
import { pongs } from './pong.ts';

export const pings = () => pongs() + 1;
