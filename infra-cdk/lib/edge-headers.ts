/**
 * What CloudFront adds to every request of the /api/* behavior on its way
 * to the HTTP API (issue 8). The Go API reads both (shared/ratelimit,
 * client.go; a test checks the names match):
 *
 * - ORIGIN_SECRET_HEADER, a custom origin header whose value is generated
 *   in Secrets Manager. The api function is given the same value
 *   (OFICINA_ORIGIN_SECRET) and refuses requests without it, so a direct
 *   call to the execute-api endpoint cannot pose as CloudFront. CloudFront
 *   overwrites a viewer header of the same name.
 * - VIEWER_ADDRESS_HEADER, the viewer's IP, written by a viewer-request
 *   function (below). Behind CloudFront API Gateway's sourceIp is the edge's
 *   address, so throttling on it would lock out everyone on that edge.
 *   The managed AllViewerExceptHostHeader policy forwards viewer headers
 *   only (not CloudFront-Viewer-Address), and a header set by a viewer
 *   function is a viewer header; the function also replaces any value the
 *   client sent.
 */
export const ORIGIN_SECRET_HEADER = 'X-Oficina-Origin-Secret';
export const VIEWER_ADDRESS_HEADER = 'X-Oficina-Viewer-Address';

/** The viewer-request function (cloudfront-js-2.0) of the /api/* behavior. */
export const VIEWER_ADDRESS_CODE = `function handler(event) {
  var request = event.request;
  request.headers['x-oficina-viewer-address'] = { value: event.viewer.ip };
  return request;
}
`;
