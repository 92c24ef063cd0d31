package koala.common.http;

/** What a handler answers: a status and a value that is written as JSON (none for 204). */
public record Response(int status, Object body) {
    public static Response ok(Object body) {
        return new Response(200, body);
    }

    public static Response created(Object body) {
        return new Response(201, body);
    }

    public static Response accepted(Object body) {
        return new Response(202, body);
    }
}
