/**
 * Events as JSON lines ({@link koala.common.event.EventLine}): what the framework runner and the
 * reference framework's master decided and noticed, written one JSON object a line so that tools
 * read them back by kind and field instead of matching the words.
 */
package koala.common.event;
