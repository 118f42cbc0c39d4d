package dev.runbook.operator.isolation;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Streams over a blocking socket channel that one thread may read while another writes. The JDK's
 * {@code Channels.newInputStream} and {@code newOutputStream} hold the channel's one blocking lock for the
 * whole of a read, so a reader waiting for an answer would block the writer of the request it waits for.
 * A {@link SocketChannel}'s own read and write have separate locks.
 */
final class ChannelStreams {
    private ChannelStreams() {}

    static InputStream input(SocketChannel channel) {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int read = read(one, 0, 1);
                return read < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] bytes, int offset, int length) throws IOException {
                if (length == 0) return 0;
                return channel.read(ByteBuffer.wrap(bytes, offset, length));
            }

            @Override
            public void close() throws IOException { channel.close(); }
        };
    }

    static OutputStream output(SocketChannel channel) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
                while (buffer.hasRemaining()) channel.write(buffer);
            }

            @Override
            public void close() throws IOException { channel.close(); }
        };
    }
}
