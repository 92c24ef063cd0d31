package koala.jdf;

import static koala.jdf.Token.Kind.AND;
import static koala.jdf.Token.Kind.CLOSE;
import static koala.jdf.Token.Kind.END;
import static koala.jdf.Token.Kind.EQUALS;
import static koala.jdf.Token.Kind.OPEN;
import static koala.jdf.Token.Kind.OPERATOR;
import static koala.jdf.Token.Kind.STRING;
import static koala.jdf.Token.Kind.WORD;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the tokens of a job description into requests, by recursive descent:
 *
 * <pre>
 * jdf         := '&amp;' relation*                one request: a job of one component
 *              | '+' sub-request+              a multi-request: one co-allocated job
 * sub-request := '(' '&amp;' relation* ')'        one component
 * relation    := '(' name '=' value* ')'
 * value       := word | string | '(' value* ')'  a group, as in environment = (NAME "value")
 * </pre>
 *
 * It recovers from errors to report as many as it can: junk is skipped up to the next '(', a bad
 * relation up to its ')'. Relations do not nest, so a '(' followed by {@code name =} or by '&amp;'
 * inside a relation's values means that relation's ')' is missing: "unbalanced '(' opened at L:C" is
 * reported there and reading goes on with the new relation. When the lexer stopped early (an
 * unterminated string or comment) the missing parentheses at the end of the file are not reported.
 */
final class RslParser {
    private final List<Token> tokens;
    private final boolean truncated;
    private final Problems problems;
    private int next;
    /** Set when a relation's values held a token that cannot be a value: the relation is dropped. */
    private boolean badValue;

    private RslParser(JdfLexer.Result lexed, Problems problems) {
        this.tokens = lexed.tokens();
        this.truncated = lexed.truncated();
        this.problems = problems;
    }

    static List<Rsl.Request> parse(JdfLexer.Result lexed, Problems problems) {
        return new RslParser(lexed, problems).document();
    }

    private List<Rsl.Request> document() {
        Token first = peek(0);
        if (first.is(END)) {
            if (!truncated) {
                problems.add(problems.at(1, 1), "empty job description: expected '&' (one request) or '+' "
                        + "(a multi-request)");
            }
            return List.of();
        }
        if (first.is(AND)) {
            return requests();
        }
        if (first.isPlus()) {
            advance();
            return multiRequest(first);
        }
        problems.add(first.at(), "expected '&' (one request) or '+' (a multi-request) at the start, found "
                + first.shown());
        if (startsSubRequest()) {
            return multiRequest(first);
        }
        return first.is(OPEN) ? List.of(request(first.at(), false)) : List.of();
    }

    /**
     * {@code & relation*}, normally once. A second '&amp;' is an error (several components need '+'), but
     * what follows it is read as another request, so that its relations are checked on their own.
     */
    private List<Rsl.Request> requests() {
        List<Rsl.Request> requests = new ArrayList<>();
        while (peek(0).is(AND)) {
            Token and = advance();
            if (!requests.isEmpty()) {
                problems.add(and.at(), "a second '&': a job has one request; several components are written "
                        + "+( &(...) )( &(...) )");
            }
            requests.add(request(and.at(), false));
        }
        return requests;
    }

    /** Relations up to the end of the file or a '&amp;', or, in a sub-request, up to its ')' (left for the caller). */
    private Rsl.Request request(SourcePosition at, boolean sub) {
        List<Rsl.Relation> relations = new ArrayList<>();
        for (Token t = peek(0); !t.is(END) && !(sub ? t.is(CLOSE) || startsSubRequest() : t.is(AND)); t = peek(0)) {
            if (startsSubRequest()) {
                problems.add(t.at(), "a sub-request '( &(...) )' belongs in a multi-request, which starts with '+'");
                skipBalanced(advance());
            } else if (t.is(OPEN)) {
                relation().ifPresent(relations::add);
            } else if (t.is(CLOSE)) {
                problems.add(advance().at(), "unexpected ')'");
            } else if (t.is(AND)) {
                problems.add(advance().at(), "unexpected '&' inside a sub-request");
            } else {
                problems.add(t.at(), "expected '(' to start a relation, found " + t.shown());
                skipJunk();
            }
        }
        return new Rsl.Request(at, relations);
    }

    private List<Rsl.Request> multiRequest(Token plus) {
        List<Rsl.Request> requests = new ArrayList<>();
        boolean outside = false;
        for (Token t = peek(0); !t.is(END); t = peek(0)) {
            if (t.is(OPEN) && peek(1).is(WORD) && peek(2).is(EQUALS)) {
                if (!outside) {
                    problems.add(t.at(), "a relation outside any sub-request" + (requests.isEmpty()
                            ? ": write each component as ( &(...)(...) )" : " (a ')' too many before it?)"));
                }
                outside = true;
                relation();
            } else if (t.is(OPEN)) {
                outside = false;
                subRequest().ifPresent(requests::add);
            } else if (t.is(CLOSE)) {
                problems.add(advance().at(), "unexpected ')'");
            } else {
                problems.add(t.at(), "expected '(' to start a sub-request '( &(...) )', found " + t.shown());
                skipJunk();
            }
        }
        if (requests.isEmpty() && !problems.any()) {
            problems.add(plus.at(), "'+' needs sub-requests, one per component: +( &(...) )( &(...) )");
        }
        return requests;
    }

    private Optional<Rsl.Request> subRequest() {
        Token open = advance();
        Token and = peek(0);
        if (!and.is(AND)) {
            problems.add(and.at(), "expected '&' after '(' to start a sub-request, found " + and.shown());
            skipBalanced(open);
            return Optional.empty();
        }
        advance();
        Rsl.Request request = request(and.at(), true);
        Token end = peek(0);
        if (end.is(CLOSE)) {
            advance();
        } else {
            unclosed(open, end);
        }
        return Optional.of(request);
    }

    private Optional<Rsl.Relation> relation() {
        Token open = advance();
        Token name = peek(0);
        if (name.is(CLOSE)) {
            problems.add(open.at(), "empty relation '()'");
            advance();
            return Optional.empty();
        }
        if (!name.is(WORD) || name.isPlus()) {
            if (!name.is(END)) {
                problems.add(name.at(), "expected an attribute name after '(', found " + name.shown());
            }
            skipRest(open);
            return Optional.empty();
        }
        advance();
        Token equals = peek(0);
        if (!equals.is(EQUALS)) {
            problems.add(equals.at(), equals.is(OPERATOR)
                    ? name.text() + ": KOALA takes only '=' relations, not '" + equals.text() + "'"
                    : name.text() + ": relation without '=': write (" + name.text() + " = value)");
            skipRest(open);
            return Optional.empty();
        }
        advance();
        badValue = false;
        List<Rsl.Value> values = sequence(open, name.text());
        return badValue ? Optional.empty() : Optional.of(new Rsl.Relation(name.text(), name.at(), values));
    }

    /** Values up to the ')' that closes {@code open}, which is consumed. */
    private List<Rsl.Value> sequence(Token open, String attribute) {
        List<Rsl.Value> values = new ArrayList<>();
        for (Token t = peek(0); !t.is(CLOSE); t = peek(0)) {
            if (t.is(END) || startsRelation()) {
                unclosed(open, t);
                return values;
            }
            advance();
            if (t.is(WORD) || t.is(STRING)) {
                values.add(new Rsl.Literal(t.text(), t.at(), t.is(STRING)));
            } else if (t.is(OPEN)) {
                values.add(new Rsl.Group(sequence(t, attribute), t.at()));
            } else {
                problems.add(t.at(), attribute + ": unexpected " + t.shown() + " in the value; quote a value "
                        + "that contains it");
                badValue = true;
            }
        }
        advance();
        return values;
    }

    /** After an error inside a relation or group: skip to the ')' that closes {@code open}. */
    private void skipRest(Token open) {
        int depth = 0;
        for (Token t = peek(0); ; t = peek(0)) {
            if (t.is(END) || (depth == 0 && startsRelation())) {
                unclosed(open, t);
                return;
            }
            advance();
            if (t.is(OPEN)) {
                depth++;
            } else if (t.is(CLOSE) && depth-- == 0) {
                return;
            }
        }
    }

    /** Skips a sub-request or anything else in parentheses, relations and all, to its ')'. */
    private void skipBalanced(Token open) {
        int depth = 0;
        for (Token t = peek(0); !(t.is(CLOSE) && depth == 0); t = peek(0)) {
            if (t.is(END)) {
                unclosed(open, t);
                return;
            }
            depth += t.is(OPEN) ? 1 : t.is(CLOSE) ? -1 : 0;
            advance();
        }
        advance();
    }

    /** Skips tokens that cannot start anything, up to the next parenthesis. */
    private void skipJunk() {
        while (!peek(0).is(END) && !peek(0).is(OPEN) && !peek(0).is(CLOSE)) {
            advance();
        }
    }

    private void unclosed(Token open, Token where) {
        if (!(where.is(END) && truncated)) {
            problems.add(where.at(), "unbalanced '(' opened at " + Problems.lineColumn(open.at()));
        }
    }

    /** {@code ( name =} or {@code ( &}: the start of a relation or of a sub-request. */
    private boolean startsRelation() {
        return peek(0).is(OPEN) && (peek(1).is(AND) || (peek(1).is(WORD) && peek(2).is(EQUALS)));
    }

    private boolean startsSubRequest() {
        return peek(0).is(OPEN) && peek(1).is(AND);
    }

    private Token peek(int ahead) {
        return tokens.get(Math.min(next + ahead, tokens.size() - 1));
    }

    private Token advance() {
        Token t = peek(0);
        if (next < tokens.size() - 1) {
            next++;
        }
        return t;
    }
}
