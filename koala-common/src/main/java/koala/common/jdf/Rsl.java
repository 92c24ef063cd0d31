package koala.common.jdf;

import java.util.List;

/** The syntax tree of a job description, before attribute names and values are checked. */
final class Rsl {
    private Rsl() {
    }

    /** One request {@code &(...)(...)}: the relations of one component; {@code at} is its '&amp;'. */
    record Request(SourcePosition at, List<Relation> relations) {
        Request {
            relations = List.copyOf(relations);
        }
    }

    /** {@code (name = values...)}; {@code at} is where the name starts. */
    record Relation(String name, SourcePosition at, List<Value> values) {
        Relation {
            values = List.copyOf(values);
        }
    }

    /** A value: a literal, or a parenthesised group of values such as {@code (NAME "value")}. */
    sealed interface Value permits Literal, Group {
        SourcePosition at();
    }

    /** A quoted or unquoted literal, quotes removed. */
    record Literal(String text, SourcePosition at) implements Value {
    }

    /** {@code ( values... )}; {@code at} is its '('. */
    record Group(List<Value> items, SourcePosition at) implements Value {
        Group {
            items = List.copyOf(items);
        }
    }
}
