package koala.common.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class FreePortTest {
    @Test
    void aPortIsBelowTheEphemeralRangeAndFree() throws IOException {
        int port = FreePort.any();

        assertThat(port).isBetween(10_000, FreePort.ephemeralStart() - 1);
        try (ServerSocket socket = new ServerSocket(port)) {
            assertThat(socket.getLocalPort()).isEqualTo(port);
        }
    }

    @Test
    void aPortSomeoneListensOnIsNotGiven() throws IOException {
        int taken = FreePort.any();
        try (ServerSocket socket = new ServerSocket(taken)) {
            for (int i = 0; i < 200; i++) {
                assertThat(FreePort.any()).isNotEqualTo(taken);
            }
        }
    }
}
