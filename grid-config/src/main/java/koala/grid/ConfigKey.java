package koala.grid;

/**
 * One key of the grid configuration, as {@link ConfigKeys} lists it and the admin guide's
 * "Configuration reference" documents it.
 *
 * @param pattern      the key, with {@code S} for a site's name ({@code A}, {@code B} for the two of a
 *                     bandwidth), {@code F} for a file's, {@code L} for a logger's and {@code H} for a host's: {@code site.S.sge.cell}
 * @param type         what it takes
 * @param defaultValue the default as the admin guide's table states it (without its Markdown)
 * @param live         whether a running scheduler takes a new value when it re-reads the file on
 *                     {@code SIGHUP} (site provisioning defaults are also re-read by the runners as the
 *                     file changes); otherwise the value takes effect at the next start
 * @param meaning      what it sets, in a few words
 */
public record ConfigKey(String pattern, ValueType type, String defaultValue, boolean live, String meaning) {
}
