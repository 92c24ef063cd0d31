/**
 * JSON over HTTP for every KOALA process: {@link koala.http.JsonHttpServer} (on Jetty) and
 * {@link koala.http.JsonHttpClient}.
 *
 * <h2>Endpoints</h2>
 * A server listens on one or more {@link koala.http.Endpoint}s, each with a name that its
 * requests carry ({@link koala.http.Request#endpoint()}): a TCP address (port 0 picks a
 * free one; {@link koala.http.JsonHttpServer#address(String)} says which) or a Unix domain
 * socket file. A daemon typically has three: {@code "local"} on loopback for programs on its host,
 * {@code "network"} for compute nodes, and {@code "unix"} for users on its host. The socket file
 * is created with the endpoint's mode (default {@code rw-------}) before anyone can connect (it is
 * bound in a private directory and renamed into place); a stale one left by a dead server is
 * removed, a live one or a file that is not a socket makes the server refuse to start.
 *
 * <h2>Who is calling</h2>
 * Over the Unix socket the kernel names the caller: {@link koala.http.Request#peer()} has
 * its uid, gid and user name ({@code SO_PEERCRED}), which nothing the caller sends can change.
 * Over TCP there is only an address, so whatever listens beyond loopback checks a secret:
 * {@link koala.http.Guard#bearer(String)} wants {@code Authorization: Bearer <secret>}
 * (401 otherwise, compared in constant time), and a client carries one with
 * {@link koala.http.JsonHttpClient#withBearer(String)}. Guards run before routing (per
 * endpoint, {@link koala.http.JsonHttpServer#guard(String, koala.http.Guard)}) or
 * before a route's handler ({@link koala.http.Guard#onlyOn(String...)} hides a route from
 * other endpoints with a 404), and always before the body is read.
 *
 * <h2>Limits</h2>
 * <ul>
 * <li>Request bodies: at most 1 MiB by default ({@code Builder.maxBodyBytes}). A larger
 *     {@code Content-Length} is refused with a 413 naming the limit before a byte of the body is
 *     read; a chunked body is counted as it arrives and refused once past the limit. The
 *     connection is then closed, its rest unread: a 2 GB upload costs the server one buffer.</li>
 * <li>Stalled clients: a connection on which nothing arrives for the idle timeout (30 s by
 *     default, {@code Builder.idleTimeout}) in the middle of a request (headers or body) or of
 *     reading an answer is dropped (a stalled body gets a 408 first). A handler that waits longer
 *     than that (a long poll) keeps its connection: only a waiting read or write counts.</li>
 * <li>Slow heads: a request's head (request line and headers, and any blank lines before them) must
 *     all arrive within the head timeout (10 s by default, {@code Builder.headTimeout}), however it
 *     trickles: a client sending a header line every few seconds is never idle for the idle timeout,
 *     but is answered 408 and closed once its head has taken that long ({@code HeadDeadline}; the
 *     connections are looked at every quarter of the bound, at most every second, so the close comes
 *     at most that much later). A connection waiting between requests with nothing sent is not
 *     arriving a head: only the idle timeout applies to it.</li>
 * <li>Threads: {@code threads} handlers at once (more requests queue), plus one selector thread
 *     per endpoint; long polls hold a handler thread while they wait. All are daemon threads.</li>
 * <li>JSON: the shared mapper ({@link koala.common.json.Json}) converts nothing: {@code "2"} or
 *     {@code 1.5} for a whole number is a 400 naming the field's path and the value sent.</li>
 * </ul>
 *
 * <h2>Errors</h2>
 * Every error is JSON {@link koala.http.ApiError}: a handler's
 * {@link koala.http.ApiException} gives its status; a domain
 * {@link koala.common.failure.Failure} gets the status {@link koala.http.FailureStatus} maps
 * its kind to (404, 410, 409, 400, 503, 403, 429, 401, 422); any other exception is a 500 that is
 * logged and never takes the process down; what Jetty refuses itself (a malformed request) is
 * answered in the same format. The client turns each back into an {@code ApiException}, and a
 * server it cannot reach into a 503 that says so ({@code unreached()}), 504 when it does not
 * answer in time; {@code transientFailure()} is the one test for "may work if asked again".
 *
 * <h2>Clients</h2>
 * Over TCP the client uses the JDK's {@code HttpClient} (a pool, a selector thread); a process that
 * makes a request or two and exits, like the command line, takes
 * {@link koala.http.JsonHttpClient#shortLived} instead: a plain socket per request and no
 * thread. Over a Unix socket it is a connection per request too. Both speak just enough HTTP/1.1
 * for a {@code JsonHttpServer} ({@code Http1}).
 */
package koala.http;
