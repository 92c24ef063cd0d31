/**
 * A worker node's DeviceManager process ({@link koala.fluent.device.DeviceMain},
 * {@link koala.fluent.device.DeviceManager}): it reports to the master and runs the application
 * components the master sends it — the RL video filter ({@code VideoFilter}) and
 * the streaming word count's reader, mappers and counter ({@code WordCount},
 * splitting text with {@link koala.fluent.device.Words}, as the master does to check the counts).
 */
package koala.fluent.device;
