package com.jcraft.jsch;

/** JSch's host-key exceptions have package-private constructors; tests make them here, as JSch does. */
public final class HostKeyFailures {
    private HostKeyFailures() {
    }

    public static JSchException unknown(String message) {
        return new JSchUnknownHostKeyException(message);
    }

    public static JSchException changed(String message) {
        return new JSchChangedHostKeyException(message);
    }
}
