package koala.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import koala.jdf.JdfError;

/** Reading job description files and printing their errors, as {@code validate} and {@code submit} do. */
final class JdfFiles {
    /** Errors printed for one file before the rest are only counted. */
    static final int MAX_ERRORS = 100;

    private JdfFiles() {
    }

    /** The text of {@code file} ({@code -}: standard input); empty, with the reason printed on {@code err}, if unreadable. */
    static Optional<String> read(String file, PrintWriter err) {
        try {
            if (file.equals("-")) {
                return Optional.of(decode(System.in));
            }
            if (Files.isDirectory(Path.of(file))) {
                err.println(file + ": is a directory, not a job description file");
                return Optional.empty();
            }
            return Optional.of(Files.readString(Path.of(file), StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            err.println(file + ": no such file");
        } catch (AccessDeniedException e) {
            err.println(file + ": cannot read it (permission denied)");
        } catch (CharacterCodingException e) {
            err.println(file + ": not UTF-8 text");
        } catch (IOException e) {
            err.println(file + ": cannot read it: " + e.getMessage());
        }
        return Optional.empty();
    }

    /**
     * A file's errors as printed: the first {@link #MAX_ERRORS}, then how many more there are, as
     * compilers do (a file repeating one bad attribute 300,000 times gives 101 lines, not 300,000).
     */
    static List<String> printed(String file, List<JdfError> errors) {
        List<String> lines = new ArrayList<>();
        errors.stream().limit(MAX_ERRORS).map(JdfError::toString).forEach(lines::add);
        int more = errors.size() - MAX_ERRORS;
        if (more > 0) {
            lines.add(String.format(Locale.ROOT, "%s: ... and %,d more error%s", file, more, more == 1 ? "" : "s"));
        }
        return lines;
    }

    private static String decode(InputStream in) throws IOException {
        return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(in.readAllBytes())).toString();
    }
}
