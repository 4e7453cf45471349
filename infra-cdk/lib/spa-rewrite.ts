/**
 * The CloudFront Function (viewer request, cloudfront-js-2.0) on the
 * distribution's default (S3) behavior that gives the SPA its client-side
 * routes: a request whose last path segment has no dot (/, /tickets,
 * /accounts/acc-0123/settings) is served /index.html; anything with an
 * extension (/assets/index-3f2a.js, /favicon.ico) is passed through, so a
 * missing asset is a real 4xx and not an HTML page the browser would try to
 * run as a script.
 *
 * Why not the distribution's errorResponses (403/404 → /index.html)? They
 * apply to every behavior, the /api/* one included, so the API's CouchDB
 * style 404 {"error":"not_found"} and 403 {"error":"forbidden"} JSON would
 * come back as index.html with a 200. A function on the default behavior
 * only touches requests that go to S3.
 *
 * Kept in plain ES5.1-compatible JavaScript (no arrow functions needed by the
 * runtime, but it would accept them) and small: CloudFront Functions have a
 * 10 KB code limit and a sub-millisecond budget.
 */
export const SPA_REWRITE_CODE = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var last = uri.substring(uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) {
    request.uri = '/index.html';
  }
  return request;
}
`;
