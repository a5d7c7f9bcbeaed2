import { compileServerForTests } from './compiled-server.ts';

/** Global setup of the node project: the compiled server its process tests start (compiled-server.ts). */
export default function setup(): void {
  compileServerForTests();
}
