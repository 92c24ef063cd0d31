package koala.common.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import koala.common.json.Json;

/** One HTTP request as a handler sees it: path parameters, query parameters, the raw body and the headers (names in lower case). */
public record Request(String method, String path, Map<String, String> pathParams, Map<String, String> query,
                      byte[] body, Map<String, String> headers) {

    public Request(String method, String path, Map<String, String> pathParams, Map<String, String> query, byte[] body) {
        this(method, path, pathParams, query, body, Map.of());
    }

    /** A request header, by its name in any case. */
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name.toLowerCase(java.util.Locale.ROOT)));
    }

    public String param(String name) {
        return pathParams.get(name);
    }

    public Optional<String> queryParam(String name) {
        return Optional.ofNullable(query.get(name));
    }

    /** Reads the body as {@code type}; a malformed body is a 400 naming the offending field. */
    public <T> T body(Class<T> type) {
        if (body.length == 0) {
            throw new ApiException(400, "request body is empty; expected a JSON object");
        }
        try {
            T value = Json.mapper().readValue(body, type);
            if (value == null) {
                throw new ApiException(400, "request body is null; expected a JSON object");
            }
            return value;
        } catch (UnrecognizedPropertyException e) {
            throw ApiException.badRequest(e.getPropertyName(), "unknown field");
        } catch (MismatchedInputException e) {
            String field = fieldPath(e);
            String expected = e.getTargetType() == null ? "another type" : describe(e.getTargetType());
            throw field.isEmpty() ? new ApiException(400, "malformed JSON: expected " + expected)
                    : ApiException.badRequest(field, "expected " + expected);
        } catch (JsonMappingException e) {
            String field = fieldPath(e);
            throw field.isEmpty()
                    ? new ApiException(400, "malformed JSON: " + e.getOriginalMessage())
                    : ApiException.badRequest(field, e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            throw new ApiException(400, "malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new ApiException(400, "unreadable body: " + e.getMessage());
        }
    }

    private static String describe(Class<?> type) {
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        if (java.util.Map.class.isAssignableFrom(type)) {
            return "an object";
        }
        if (Number.class.isAssignableFrom(type) || (type.isPrimitive() && type != boolean.class)) {
            return "a number";
        }
        if (type == String.class) {
            return "a string";
        }
        return type.isRecord() ? "an object" : type.getSimpleName();
    }

    private static String fieldPath(JsonMappingException e) {
        return e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining("."));
    }
}
