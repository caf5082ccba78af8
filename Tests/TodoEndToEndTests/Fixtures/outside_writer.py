"""A program that writes a todo file without taking the tool's lock, as editors and scripts do.

Usage: python3 outside_writer.py MODE FILE STOPFILE SEED LOG

Until STOPFILE exists (at most 400 saves), it saves the file once more with one new line,
"writer line wK", then waits a moment. MODE is how it saves:

  inplace  open the file for writing, read it, truncate it, write the first half of the new
           contents, pause, write the rest (a slow editor saving in place)
  append   open the file for appending and write the line (echo LINE >> FILE)
  rename   read the file, write the new contents to a file beside it slowly, rename that over
           the file (an editor saving by rename)

Each save appends "K START END" to LOG, the CLOCK_MONOTONIC seconds at which it began (before
its read) and ended (after its last write or its rename).
"""
import os
import random
import sys
import time


def read_all(fd):
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def with_line(content, line):
    if content and not content.endswith(b"\n"):
        content += b"\n"
    return content + line


def main():
    mode, path, stop, seed, log_path = sys.argv[1:6]
    rng = random.Random(int(seed))
    with open(log_path, "w") as log:
        k = 0
        while not os.path.exists(stop) and k < 400:
            k += 1
            line = b"writer line w%d\n" % k
            start = time.monotonic()
            if mode == "inplace":
                fd = os.open(path, os.O_RDWR)
                new = with_line(read_all(fd), line)
                os.ftruncate(fd, 0)
                half = len(new) // 2
                os.pwrite(fd, new[:half], 0)
                time.sleep(rng.uniform(0.01, 0.03))
                os.pwrite(fd, new[half:], half)
                os.close(fd)
            elif mode == "append":
                fd = os.open(path, os.O_WRONLY | os.O_APPEND)
                os.write(fd, line)
                os.close(fd)
            elif mode == "rename":
                fd = os.open(path, os.O_RDONLY)
                new = with_line(read_all(fd), line)
                os.close(fd)
                temporary = path + ".saving"
                out = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                half = len(new) // 2
                os.write(out, new[:half])
                time.sleep(rng.uniform(0.002, 0.01))
                os.write(out, new[half:])
                os.close(out)
                os.rename(temporary, path)
            else:
                sys.exit("unknown mode " + mode)
            log.write("%d %.6f %.6f\n" % (k, start, time.monotonic()))
            log.flush()
            time.sleep(rng.uniform(0.0, 0.02))


main()
