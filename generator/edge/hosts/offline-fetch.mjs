// Preloaded into `netlify dev` (NODE_OPTIONS=--import, see local-engines.ts):
// Node's fetch answers a request off this machine with an immediate error
// instead of looking the host up. @netlify/edge-bundler's serve() always
// checks https://edge.netlify.com/version.txt for newer editor types (even
// with --offline) and ignores the failure; without this the check still
// sends a DNS query. Loopback requests (the edge runtime, the site) go on.
const realFetch = globalThis.fetch;

function isLoopback(hostname) {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

globalThis.fetch = (input, init) => {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const url = new URL(href);
  if (!isLoopback(url.hostname)) return Promise.reject(new TypeError(`offline: no request to ${url.host}`));
  return realFetch(input, init);
};
