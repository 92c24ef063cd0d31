package koala.jdf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the relations of one request against the attribute table: unknown names (with the closest
 * known one suggested), an attribute given twice, the number and form of values, each value.
 */
final class RequestReader {
    private final Problems problems;
    private final Values.Reader provisioning;
    private boolean unknown;

    /** @param provisioningPolicies the names {@code provisioning} may take, or null to take any (lower-cased) */
    RequestReader(Problems problems, List<String> provisioningPolicies) {
        this.problems = problems;
        this.provisioning = provisioningPolicies == null ? Attribute.PROVISIONING::read
                : Values.oneOf(provisioningPolicies.toArray(String[]::new));
    }

    /** Whether some request named an attribute that does not exist. */
    boolean sawUnknownAttribute() {
        return unknown;
    }

    Draft read(Rsl.Request request) {
        Draft draft = new Draft(request.at());
        for (Rsl.Relation relation : request.relations()) {
            Optional<Attribute> attribute = known(relation);
            if (attribute.isEmpty()) {
                continue;
            }
            Draft.Found first = draft.found().get(attribute.get());
            if (first != null) {
                problems.add(relation.at(), attribute.get().spelling() + ": given twice in one request (first at "
                        + Problems.lineColumn(first.relation().at()) + ")");
                continue;
            }
            Object value = value(attribute.get(), relation);
            draft.found().put(attribute.get(), new Draft.Found(attribute.get(), relation, value));
        }
        return draft;
    }

    private Optional<Attribute> known(Rsl.Relation relation) {
        Optional<Attribute> attribute = Attribute.named(relation.name());
        if (attribute.isEmpty()) {
            unknown = true;
            String hint = Attribute.closestTo(relation.name()).map(a -> "; did you mean '" + a.spelling() + "'?")
                    .orElse("");
            problems.add(relation.at(), "unknown attribute '" + relation.name() + "'" + hint);
        }
        return attribute;
    }

    /** The value read, or null when it was bad (and reported). */
    private Object value(Attribute attribute, Rsl.Relation relation) {
        return switch (attribute.shape()) {
            case ONE -> one(attribute, relation);
            case SEQUENCE -> sequence(attribute, relation);
            case PAIRS -> pairs(attribute, relation);
        };
    }

    private Object one(Attribute attribute, Rsl.Relation relation) {
        List<Rsl.Value> values = relation.values();
        if (values.size() != 1) {
            String hint = switch (attribute) {
                case EXECUTABLE -> "; the program's arguments go in (arguments = ...)";
                case MEMORY -> "; write a size as one word, its unit right after the number, as in 4G";
                default -> "; quote a value that contains spaces";
            };
            problems.add(values.isEmpty() ? relation.at() : values.get(1).at(), attribute.spelling() + ": "
                    + (values.isEmpty() ? "no value" : "takes one value, found " + values.size() + hint));
            return null;
        }
        return literal(attribute, values.get(0));
    }

    private List<String> sequence(Attribute attribute, Rsl.Relation relation) {
        List<String> items = new ArrayList<>();
        boolean good = true;
        for (Rsl.Value value : relation.values()) {
            Object item = literal(attribute, value);
            if (item == null) {
                good = false;
            } else {
                items.add((String) item);
            }
        }
        return good ? items : null;
    }

    private Object literal(Attribute attribute, Rsl.Value value) {
        if (!(value instanceof Rsl.Literal literal)) {
            problems.add(value.at(), attribute.spelling() + ": unexpected '(' in the value; only environment "
                    + "takes (NAME value) pairs");
            return null;
        }
        try {
            return attribute == Attribute.PROVISIONING ? provisioning.read(literal.text()) : attribute.read(literal.text());
        } catch (Values.Bad bad) {
            problems.add(literal.at(), attribute.spelling() + ": '" + literal.text() + "' " + bad.getMessage());
            return null;
        }
    }

    /** {@code (NAME value)(NAME value)...}: each NAME a variable name, none twice. */
    private Map<String, String> pairs(Attribute attribute, Rsl.Relation relation) {
        Map<String, String> pairs = new LinkedHashMap<>();
        Map<String, SourcePosition> firstAt = new LinkedHashMap<>();
        boolean good = true;
        for (Rsl.Value value : relation.values()) {
            Optional<String[]> pair = pair(attribute, value);
            if (pair.isEmpty()) {
                good = false;
            } else if (firstAt.containsKey(pair.get()[0])) {
                problems.add(value.at(), attribute.spelling() + ": '" + pair.get()[0] + "' set twice (first at "
                        + Problems.lineColumn(firstAt.get(pair.get()[0])) + ")");
                good = false;
            } else {
                pairs.put(pair.get()[0], pair.get()[1]);
                firstAt.put(pair.get()[0], value.at());
            }
        }
        return good ? pairs : null;
    }

    private Optional<String[]> pair(Attribute attribute, Rsl.Value value) {
        String name = attribute.spelling();
        if (!(value instanceof Rsl.Group group) || group.items().size() != 2
                || !(group.items().get(0) instanceof Rsl.Literal key) || !(group.items().get(1) instanceof Rsl.Literal v)) {
            problems.add(value.at(), name + ": expected (NAME value) pairs, as in (" + name + " = (HOME \"/tmp\"))");
            return Optional.empty();
        }
        if (!Values.isVariableName(key.text())) {
            problems.add(key.at(), name + ": '" + key.text() + "' is not a variable name (letters, digits and '_', "
                    + "not starting with a digit)");
            return Optional.empty();
        }
        return Optional.of(new String[] {key.text(), v.text()});
    }
}
