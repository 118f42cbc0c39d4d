package dev.runbook.engine.yaml;

import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads the text files users hand over (state files, scenarios, bundle files, the policy) with their
 * size checked before a byte is parsed, and as UTF-8 strictly: a file too large or not text is refused
 * at once with a message naming the file, and for bytes that are not UTF-8 the line and column where
 * they start, instead of the parser's time or the decoder's "Input length = 1".
 */
public final class TextFiles {
    /** State and scenario files: far more than a namespace's worth of objects, far less than stalls the parser. */
    public static final long MAX_INPUT_BYTES = 2L << 20;

    private TextFiles() {}

    /**
     * @param name how messages name the file (a path relative to the bundle, say)
     * @param what what the file is, for the size message: "a state file"
     */
    public static String read(Path file, String name, long maxBytes, String what) {
        byte[] bytes;
        try {
            long size = Files.size(file);
            if (size > maxBytes) {
                throw new InvalidInputException(Problem.inFile(name, "is " + size + " bytes, more than " + what + " may be ("
                        + maxBytes + " bytes): split it, or keep only the objects and fields the rules read"));
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new InvalidInputException(Problem.inFile(name, "cannot be read: " + e.getMessage()));
        }
        return decode(name, bytes);
    }

    /** The bytes as UTF-8; otherwise a problem at the line and column where the first invalid byte is. */
    public static String decode(String name, byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (result.isError()) {
            int offset = in.position();
            int line = 1;
            int column = 1;
            for (int i = 0; i < out.position(); i++) {
                if (out.get(i) == '\n') { line++; column = 1; } else column++;
            }
            throw new InvalidInputException(new Problem(name, line, column, String.format(
                    "not UTF-8 text (a binary file?): byte 0x%02x at offset %d is not valid UTF-8; give a YAML or text file",
                    bytes[offset] & 0xff, offset)));
        }
        decoder.flush(out);
        out.flip();
        return out.toString();
    }

}
