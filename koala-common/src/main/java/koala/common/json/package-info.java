/**
 * {@link koala.common.json.Json}: the one Jackson mapping every KOALA process uses (ISO-8601 times and
 * durations, strict about unknown fields), for HTTP bodies and the files processes leave behind.
 */
package koala.common.json;
