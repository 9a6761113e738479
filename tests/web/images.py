"""images.py: just enough PNG reading and image comparison for the web tests
(standard library only: zlib for the pixels)."""
import struct
import zlib


def read_png(data):
    """(width, height, rows of RGB bytes) of an 8-bit RGB or RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack("!I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack("!IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError("PNG kind not handled: depth %d colour type %d interlace %d"
                                 % (depth, ctype, interlace))
            channels = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if width is None:
        raise ValueError("PNG without IHDR")
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, prev, pos = [], bytearray(stride), 0
    for _ in range(height):
        ftype, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        prev = line
        if channels == 4:
            rgb = bytearray(width * 3)
            rgb[0::3], rgb[1::3], rgb[2::3] = line[0::4], line[1::4], line[2::4]
            rows.append(bytes(rgb))
        else:
            rows.append(bytes(line))
    return width, height, rows


def crop(image, x, y, w, h):
    width, height, rows = image
    if x + w > width or y + h > height:
        raise ValueError("crop %dx%d+%d+%d outside a %dx%d image" % (w, h, x, y, width, height))
    return w, h, [r[x * 3:(x + w) * 3] for r in rows[y:y + h]]


def block_means(image, bw, bh):
    """The image shrunk to bw x bh blocks, each the mean colour of its pixels:
    small shifts of edges and text (antialiasing, a different rasteriser)
    average out, what is where does not."""
    width, height, rows = image
    out = []
    for by in range(bh):
        y0, y1 = by * height // bh, (by + 1) * height // bh
        for bx in range(bw):
            x0, x1 = bx * width // bw, (bx + 1) * width // bw
            s = [0, 0, 0]
            for r in rows[y0:y1]:
                seg = r[x0 * 3:x1 * 3]
                s[0] += sum(seg[0::3])
                s[1] += sum(seg[1::3])
                s[2] += sum(seg[2::3])
            n = (y1 - y0) * (x1 - x0)
            out.append((s[0] / n, s[1] / n, s[2] / n))
    return out


def mean_abs_difference(a, b, bw=32, bh=18):
    """Mean over blocks and channels of |a - b|, 0..255, after block_means."""
    ma, mb = block_means(a, bw, bh), block_means(b, bw, bh)
    return sum(abs(p - q) for x, y in zip(ma, mb) for p, q in zip(x, y)) / (3 * len(ma))


def spread(image):
    """Standard deviation of the pixels' grey level: a blank image has ~0."""
    _, _, rows = image
    total = total2 = n = 0
    for r in rows[::4]:
        for i in range(0, len(r), 12):
            g = (r[i] * 299 + r[i + 1] * 587 + r[i + 2] * 114) / 1000
            total += g
            total2 += g * g
            n += 1
    mean = total / n
    return max(0.0, total2 / n - mean * mean) ** 0.5
