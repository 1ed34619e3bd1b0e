// Test-only module hook: pi-coding-agent 1.6.0 (it declares Node >= 22) imports fs.globSync, which
// Node 20 lacks; the one module that names it gets a stand-in that throws if it is ever called.
export async function load(url, context, nextLoad) {
  const r = await nextLoad(url, context);
  if (!url.endsWith('/pi-coding-agent/dist/core/package-manager.js')) return r;
  const source = String(r.source).replace(/\bglobSync, /, '');
  return { ...r, source: `const globSync = () => { throw new Error('fs.globSync needs Node 22'); };\n${source}` };
}
