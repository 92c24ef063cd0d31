/**
 * {@link koala.fluent.wire.FluentMessages}: what the reference framework's processes say to each
 * other over HTTP/JSON — a client to the master, a DeviceManager to the master and the master to a
 * DeviceManager.
 */
package koala.fluent.wire;
