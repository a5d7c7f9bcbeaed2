const shim = new URL('./fs.mjs', import.meta.url).href;

/** Resolve hook: `fs` imported from the conformance package resolves to the shim. */
export async function resolve(specifier, context, next) {
  const fromConformance = context.parentURL?.includes('/@modelcontextprotocol/conformance/') ?? false;
  if (fromConformance && (specifier === 'fs' || specifier === 'node:fs'))
    return { url: shim, shortCircuit: true };
  return next(specifier, context);
}
