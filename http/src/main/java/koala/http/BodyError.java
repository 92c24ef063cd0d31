package koala.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.io.IOException;
import java.math.BigInteger;
import java.util.Collection;
import java.util.Map;
import koala.common.json.Json;

/**
 * Turns Jackson's complaint about a request body into a 400 a person can act on: the path of the
 * field ({@code components[0].count}), what it should be and what was sent
 * ({@code nodes: expected a whole number, got 1.5}).
 */
final class BodyError {
    private static final int SHOWN = 40;

    private BodyError() {
    }

    static ApiException of(IOException e, byte[] body) {
        if (e instanceof UnrecognizedPropertyException u) {
            return ApiException.badRequest(path(u), "unknown field");
        }
        if (e instanceof MismatchedInputException m) {
            String field = path(m);
            String expected = "expected " + (m.getTargetType() == null ? "another type" : describe(m.getTargetType()));
            String got = given(body, m);
            return field.isEmpty() ? new ApiException(400, "malformed JSON: " + expected + got)
                    : ApiException.badRequest(field, expected + got);
        }
        if (e instanceof JsonMappingException m && !path(m).isEmpty()) {
            return ApiException.badRequest(path(m), m.getOriginalMessage());
        }
        if (e instanceof JsonProcessingException p) {
            return new ApiException(400, "malformed JSON: " + p.getOriginalMessage());
        }
        return new ApiException(400, "unreadable body: " + e.getMessage());
    }

    private static String describe(Class<?> type) {
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        if (Map.class.isAssignableFrom(type)) {
            return "an object";
        }
        if (type == int.class || type == long.class || type == short.class || type == byte.class
                || type == Integer.class || type == Long.class || type == Short.class || type == Byte.class
                || type == BigInteger.class) {
            return "a whole number";
        }
        if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
            return "a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        return type.isRecord() ? "an object" : type.getSimpleName();
    }

    /** {@code ", got 1.5"}: the value at the failing path, found again in the body (Jackson's parser is closed by now). */
    private static String given(byte[] body, JsonMappingException e) {
        try {
            JsonNode node = Json.mapper().readTree(body);
            for (JsonMappingException.Reference ref : e.getPath()) {
                node = ref.getFieldName() != null ? node.path(ref.getFieldName()) : node.path(ref.getIndex());
            }
            return node.isMissingNode() ? "" : ", got " + show(node);
        } catch (IOException | RuntimeException unreadable) {
            return "";
        }
    }

    private static String show(JsonNode node) {
        if (node.isTextual()) {
            String text = node.textValue();
            return "the string " + Json.write(text.length() > SHOWN ? text.substring(0, SHOWN) + "…" : text);
        }
        if (node.isObject()) {
            return "an object";
        }
        if (node.isArray()) {
            return "a list";
        }
        return node.toString();
    }

    private static String path(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.toString();
    }
}
