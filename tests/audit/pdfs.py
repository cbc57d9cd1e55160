"""Small PDFs written by hand for the audit's tests: one letter-size page, a content stream in
PDF operators, and annotations as PDF dictionaries."""

from __future__ import annotations


def text(x: float, y: float, words: str, size: float = 12) -> str:
    """Helvetica text at (x, y), in points from the page's bottom left."""
    return f"BT /F1 {size} Tf {x} {y} Td ({words}) Tj ET\n"


def box(x: float, y: float, w: float, h: float, grey: float = 0) -> str:
    """A filled rectangle (grey 0 is black, 1 white)."""
    return f"{grey} g {x} {y} {w} {h} re f 0 g\n"


def pdf(content: str, annots: tuple[str, ...] = (), image: tuple[bytes, int, int] | None = None) -> bytes:
    """The page: the image first, over the whole page (a scan: 8-bit grey pixels, width,
    height), then the content."""
    drawn = ("q 612 0 0 792 0 0 cm /Im1 Do Q\n" if image else "") + content
    stream = drawn.encode("latin-1")
    first_annot = 7 if image else 6
    refs = " ".join(f"{first_annot + i} 0 R" for i in range(len(annots)))
    xobjects = "/XObject << /Im1 6 0 R >>" if image else ""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            f"/Resources << /Font << /F1 5 0 R >> {xobjects} >> /Annots [{refs}] >>"
        ).encode(),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    if image:
        pixels, w, h = image
        head = b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray " % (w, h)
        objects.append(head + b"/BitsPerComponent 8 /Length %d >>\nstream\n%s\nendstream" % (len(pixels), pixels))
    objects += [a.encode() for a in annots]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (n, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)
