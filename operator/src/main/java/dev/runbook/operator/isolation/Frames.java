package dev.runbook.operator.isolation;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;

/**
 * The messages between the operator and a worker, over the worker's standard input and output (or the
 * worker host's socket): each a frame of its length, the id of the request it belongs to, its kind and
 * its payload ({@link Wire}). Requests and answers are matched by id, so one worker answers several
 * cycles at once, in any order.
 */
final class Frames {
    /** The largest frame either side accepts: far above any cycle's facts or decision. */
    static final int MAX_FRAME = 64 << 20;

    // Requests, operator to worker.
    /** Compile a bundle, and vet it (its scenarios) when asked: origin, files, policy, whether to vet. */
    static final byte LOAD = 1;
    /** Decide one cycle of the loaded bundle: an observation. */
    static final byte DECIDE = 2;

    // Answers, worker to operator.
    /** Sent once, with id 0, when the worker is ready for requests. */
    static final byte READY = 10;
    /** The request's result. */
    static final byte OK = 11;
    /** The bundle is refused: summary, headline, details. */
    static final byte REFUSED = 12;
    /** A rule threw: rule, message. */
    static final byte RULE_FAILED = 13;
    /** A rule was stopped by its budget: rule, message. */
    static final byte RULE_STOPPED = 14;
    /** The rules fired past the firing limit: the limit, the busiest rules and their counts. */
    static final byte FIRING_LIMIT = 15;
    /** The request was not valid (an unknown parameter override, say): a message. */
    static final byte INVALID = 16;
    /** Anything else went wrong: a message. */
    static final byte ERROR = 17;

    /** One message: the request's id, its kind, its payload. */
    record Frame(long id, byte kind, byte[] payload) {}

    private Frames() {}

    /** Writes and flushes one frame; the caller holds the stream's lock. */
    static void write(DataOutputStream out, Frame frame) throws IOException {
        out.writeInt(frame.payload().length);
        out.writeLong(frame.id());
        out.writeByte(frame.kind());
        out.write(frame.payload());
        out.flush();
    }

    /**
     * The next frame, or null at the end of the stream.
     *
     * @throws Wire.WireException for a frame longer than {@link #MAX_FRAME}
     */
    static Frame read(DataInputStream in) throws IOException {
        int length;
        try {
            length = in.readInt();
        } catch (EOFException end) {
            return null;
        }
        if (length < 0 || length > MAX_FRAME) throw new Wire.WireException("a frame of " + length + " bytes");
        long id = in.readLong();
        byte kind = in.readByte();
        byte[] payload = new byte[length];
        in.readFully(payload);
        return new Frame(id, kind, payload);
    }
}
