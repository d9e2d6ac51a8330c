// Module-resolution hooks (registered by engine-variants.mjs) that load a second, private copy of
// the built engine in which dist/spawn/_launch.js — the one execa call — is replaced by
// bench/lib/launch-child-process.mjs. Every dist/ module imported under `?launch=cp` gets the same
// query, so the copy shares no module state with the real engine; packages are shared.
let distPrefix = '';
let cpLaunchUrl = '';

export function initialize(data) {
  distPrefix = data.distPrefix;
  cpLaunchUrl = data.cpLaunchUrl;
}

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  const parent = context.parentURL ?? '';
  if (!parent.includes('?launch=cp') || !result.url.startsWith(distPrefix)) return result;
  if (result.url.endsWith('/spawn/_launch.js')) return { ...result, url: cpLaunchUrl, shortCircuit: true };
  return { ...result, url: `${result.url}?launch=cp`, shortCircuit: true };
}
