"""images.py: the web tests' image comparison, on Pillow (Debian:
python3-pil). Images are Pillow RGB images."""
import io

from PIL import Image, ImageStat


def read_png(data):
    """A PNG's bytes -> an RGB image (alpha, if any, dropped)."""
    with Image.open(io.BytesIO(data)) as im:
        return im.convert("RGB")


def crop(image, x, y, w, h):
    if x + w > image.width or y + h > image.height:
        raise ValueError("crop %dx%d+%d+%d outside a %dx%d image" % (w, h, x, y, image.width, image.height))
    return image.crop((x, y, x + w, y + h))


def block_means(image, bw, bh):
    """The image shrunk to bw x bh blocks, each the mean colour of its pixels
    (unrounded): small shifts of edges and text (antialiasing, a different
    rasteriser) average out, what is where does not."""
    out = []
    for by in range(bh):
        y0, y1 = by * image.height // bh, (by + 1) * image.height // bh
        for bx in range(bw):
            x0, x1 = bx * image.width // bw, (bx + 1) * image.width // bw
            out.append(tuple(ImageStat.Stat(image.crop((x0, y0, x1, y1))).mean))
    return out


def mean_abs_difference(a, b, bw=32, bh=18):
    """Mean over blocks and channels of |a - b|, 0..255, after block_means."""
    ma, mb = block_means(a, bw, bh), block_means(b, bw, bh)
    return sum(abs(p - q) for x, y in zip(ma, mb) for p, q in zip(x, y)) / (3 * len(ma))


def spread(image):
    """Standard deviation of the pixels' grey level (ITU-R 601 luma, as
    Pillow's "L"): a blank image has ~0."""
    return ImageStat.Stat(image.convert("L")).stddev[0]


def grey_png(width, height, level):
    """An 8-bit grey-scale PNG's bytes: level(x, y) in 0..255 per pixel."""
    im = Image.new("L", (width, height))
    im.putdata([level(x, y) for y in range(height) for x in range(width)])
    out = io.BytesIO()
    im.save(out, format="PNG")
    return out.getvalue()
