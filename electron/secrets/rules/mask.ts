/** How a secret is shown anywhere: never its value. PURE. */

/**
 * A masked form of `value`: its first few characters (a token prefix such as `ghp_` or `AKIA`
 * tells which key it is; at most a sixth of the value, so at least five sixths stay hidden), a
 * fixed run of stars, and its length. Short values are stars only.
 */
export function maskSecret(value: string): string {
  const chars = [...value];
  const show = chars.length >= 24 ? 4 : 0;
  return `${chars.slice(0, show).join('')}${'*'.repeat(8)} (${chars.length} chars)`;
}
