/**
 * JSON over HTTP, the way every KOALA process talks: {@link koala.common.http.JsonHttpServer}, a small
 * router on the JDK's HTTP server whose handlers take a {@link koala.common.http.Request} and
 * answer a {@link koala.common.http.Response}, and {@link koala.common.http.JsonHttpClient}. A refused
 * request is an {@link koala.common.http.ApiException} (an HTTP status, a reason and, for a bad body,
 * the field), sent as an {@link koala.common.http.ApiError} body and thrown again on the client's side.
 */
package koala.common.http;
