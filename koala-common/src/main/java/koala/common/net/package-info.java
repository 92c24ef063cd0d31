/**
 * {@link koala.common.net.FreePort}: a port chosen by one process for another to bind, outside
 * the range the kernel gives outgoing connections.
 */
package koala.common.net;
