package koala.http;

/**
 * What a handler answers: a status and a value that is written as JSON (none for 204), or a
 * {@link RawBody} written as it is.
 */
public record Response(int status, Object body) {
    public static Response ok(Object body) {
        return new Response(200, body);
    }

    /** A 200 whose body is {@code bytes} under {@code contentType}, not JSON. */
    public static Response raw(String contentType, byte[] bytes) {
        return new Response(200, new RawBody(contentType, bytes));
    }

    /** A 200 whose body is {@code bytes} under {@code contentType}, sent with these headers too. */
    public static Response raw(String contentType, byte[] bytes, java.util.Map<String, String> headers) {
        return new Response(200, new RawBody(contentType, bytes, headers));
    }

    public static Response created(Object body) {
        return new Response(201, body);
    }

    public static Response accepted(Object body) {
        return new Response(202, body);
    }
}
