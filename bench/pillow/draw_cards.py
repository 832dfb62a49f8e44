"""Insurance cards drawn by Pillow on FreeType, the bench's fifth renderer.

Its faces, layouts, label wordings, distractors and photo effects share nothing with the other four
renderers; only the printed values come from the bench (`randomCard` in bench/chromium-cards.ts).

Reads one card per line on standard input, tab-separated: seed, form (scan or photo), the output file,
then payer, member name, member id as printed, group, BIN, PCN and RxGroup. Writes a PNG for a scan and
a JPEG for a photo; some photos are stored turned with an EXIF orientation that sets them upright, as
phones store them. A face this machine lacks fails the run rather than be replaced by another; with
--check, the program only lists the faces this machine lacks.

Licences: Pillow is MIT-CMU (HPND); the faces come from Debian's packages: Open Sans and Roboto under
the Apache License 2.0, Lato and Cantarell under the SIL Open Font License 1.1, GNU FreeFont under the
GPL 3 with the font exception, Hack under the MIT licence with the Bitstream Vera terms.
"""

import math
import os
import random
import sys
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

CARD_WIDTH_MM = 85.6
CARD_HEIGHT_MM = 54.0
CORNER_MM = 3.18
SCAN_DPI = 300
EXIF_ORIENTATION = 0x0112

FACES = [
    ("/usr/share/fonts/truetype/open-sans/OpenSans-Regular.ttf",
     "/usr/share/fonts/truetype/open-sans/OpenSans-Bold.ttf"),
    ("/usr/share/fonts/truetype/lato/Lato-Regular.ttf", "/usr/share/fonts/truetype/lato/Lato-Bold.ttf"),
    ("/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf",
     "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf"),
    ("/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Regular.ttf",
     "/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Bold.ttf"),
    ("/usr/share/fonts/opentype/cantarell/Cantarell-Regular.otf",
     "/usr/share/fonts/opentype/cantarell/Cantarell-Bold.otf"),
    ("/usr/share/fonts/truetype/freefont/FreeSans.ttf", "/usr/share/fonts/truetype/freefont/FreeSansBold.ttf"),
    ("/usr/share/fonts/truetype/freefont/FreeSerif.ttf", "/usr/share/fonts/truetype/freefont/FreeSerifBold.ttf"),
    ("/usr/share/fonts/truetype/hack/Hack-Regular.ttf", "/usr/share/fonts/truetype/hack/Hack-Bold.ttf"),
]
MEMBER_ID_WORDS = ["Identification Number", "ID Number", "Subscriber ID#", "Member No.", "Identification #"]
NAME_WORDS = ["Subscriber Name", "Enrollee", "Member Name", "Enrollee Name"]
GROUP_WORDS = ["Group No.", "Grp", "Employer Group", "Group ID"]
BIN_WORDS = ["Rx Bin", "BIN #", "RxBin"]
PCN_WORDS = ["Rx Pcn", "PCN #", "RxPcn"]
RX_GROUP_WORDS = ["Rx Grp", "Rx Group", "RxGrp #"]
LAYOUTS = ["banner", "divider", "piped", "grid"]


@dataclass
class Values:
    payer: str
    name: str
    member_id: str
    group: str
    bin: str
    pcn: str
    rx_group: str


@dataclass
class Style:
    regular: str
    bold: str
    ground: tuple
    ground_to: tuple
    ink: tuple
    label_ink: tuple
    accent: tuple
    on_accent: tuple
    upper_labels: bool
    colon: bool
    layout: str
    words: dict
    distractors: list


def hsv(hue, saturation, value):
    """An RGB triple from hue, saturation and value in 0..1."""
    hue = (hue % 1.0) * 6
    sector = int(hue) % 6
    fraction = hue - int(hue)
    p = value * (1 - saturation)
    q = value * (1 - saturation * fraction)
    t = value * (1 - saturation * (1 - fraction))
    red, green, blue = [(value, t, p), (q, value, p), (p, value, t), (p, q, value), (t, p, value), (value, p, q)][sector]
    return (round(red * 255), round(green * 255), round(blue * 255))


def style_for(rng):
    hue = rng.random()
    dark = rng.random() < 0.2
    regular, bold = rng.choice(FACES)
    if dark:
        ground = hsv(hue, 0.5 + rng.random() * 0.35, 0.28 + rng.random() * 0.22)
        ground_to = hsv(hue + 0.06, 0.55, 0.45 + rng.random() * 0.15) if rng.random() < 0.6 else ground
        ink, label_ink = (255, 255, 255), (215, 220, 230)
        accent, on_accent = hsv(hue, 0.08, 0.97), hsv(hue, 0.7, 0.25)
    else:
        ground = hsv(hue, 0.02 + rng.random() * 0.1, 0.96 + rng.random() * 0.04)
        ground_to = hsv(hue + 0.04, 0.12 + rng.random() * 0.2, 0.85 + rng.random() * 0.1) if rng.random() < 0.5 else ground
        ink = (25, 25, 30) if rng.random() < 0.6 else hsv(hue + 0.55, 0.7, 0.28)
        label_ink = hsv(hue + 0.55, 0.25, 0.35 + rng.random() * 0.15)
        accent, on_accent = hsv(hue + 0.55, 0.6 + rng.random() * 0.3, 0.35 + rng.random() * 0.2), (255, 255, 255)
    distractors = rng.sample(
        [
            f"Issuer (80840) {rng.randrange(10**9, 10**10)}",
            f"Effective {rng.randint(1, 12):02d}/01/20{rng.randint(24, 27)}",
            f"PCP ${rng.choice([10, 20, 25, 30])}  SPC ${rng.choice([40, 50, 60])}  ER ${rng.choice([150, 250, 300])}",
            f"Plan {rng.choice(['EPO', 'POS', 'Silver 3500', 'Bronze HSA'])}",
            f"Providers call {rng.randint(800, 899)}.{rng.randint(200, 999)}.{rng.randint(1000, 9999)}",
        ],
        rng.randint(1, 2),
    )
    return Style(
        regular=regular,
        bold=bold,
        ground=ground,
        ground_to=ground_to,
        ink=ink,
        label_ink=label_ink,
        accent=accent,
        on_accent=on_accent,
        upper_labels=rng.random() < 0.35,
        colon=rng.random() < 0.5,
        layout=rng.choice(LAYOUTS),
        words={
            "member_id": rng.choice(MEMBER_ID_WORDS),
            "name": rng.choice(NAME_WORDS),
            "group": rng.choice(GROUP_WORDS),
            "bin": rng.choice(BIN_WORDS),
            "pcn": rng.choice(PCN_WORDS),
            "rx_group": rng.choice(RX_GROUP_WORDS),
        },
        distractors=distractors,
    )


class Face:
    """One card face, laid out in millimetres and drawn at the given resolution."""

    def __init__(self, values, style, dpi, rng):
        self.values = values
        self.style = style
        self.rng = rng
        self.scale = dpi / 25.4
        self.width = round(CARD_WIDTH_MM * self.scale)
        self.height = round(CARD_HEIGHT_MM * self.scale)
        self.image = self.ground()
        self.draw = ImageDraw.Draw(self.image)
        self.margin = 4.2 + rng.random() * 1.6
        self.value_size = 2.9 + rng.random() * 0.8
        self.label_size = self.value_size * (0.62 + rng.random() * 0.2)
        self.fonts = {}

    def ground(self):
        start = Image.new("RGB", (self.width, self.height), self.style.ground)
        end = Image.new("RGB", (self.width, self.height), self.style.ground_to)
        sweep = Image.linear_gradient("L").rotate(self.rng.choice([0, 45, 90, 135]), expand=False)
        return Image.composite(end, start, sweep.resize((self.width, self.height)))

    def px(self, millimetres):
        return millimetres * self.scale

    def font(self, bold, size_mm):
        key = (bold, round(self.px(size_mm)))
        if key not in self.fonts:
            self.fonts[key] = ImageFont.truetype(self.style.bold if bold else self.style.regular, key[1])
        return self.fonts[key]

    def word(self, field):
        shown = self.style.words[field]
        shown = shown.upper() if self.style.upper_labels else shown
        return f"{shown}:" if self.style.colon else shown

    def text(self, text, x, top, size, bold=False, ink=None, right=None, anchor="la"):
        """Draws text from its ascender line at top; a text wider than right is set smaller to fit."""
        right = CARD_WIDTH_MM - self.margin if right is None else right
        font = self.font(bold, size)
        width = self.draw.textlength(text, font=font) / self.scale
        room = right - x if anchor == "la" else (right - x) * 2 if anchor == "ma" else x - self.margin
        while width > room and size > 1.2:
            size *= 0.94
            font = self.font(bold, size)
            width = self.draw.textlength(text, font=font) / self.scale
        self.draw.text((self.px(x), self.px(top)), text, font=font, fill=ink or self.style.ink, anchor=anchor)
        return width

    def logo(self, x, top, size, ink):
        """A mark beside the payer's name: a ring, a diamond or stacked bars."""
        kind = self.rng.randrange(3)
        box = [self.px(x), self.px(top), self.px(x + size), self.px(top + size)]
        if kind == 0:
            self.draw.ellipse(box, outline=ink, width=max(2, round(self.px(size * 0.16))))
        elif kind == 1:
            cx, cy, half = self.px(x + size / 2), self.px(top + size / 2), self.px(size / 2)
            self.draw.polygon([(cx, cy - half), (cx + half, cy), (cx, cy + half), (cx - half, cy)], fill=ink)
        else:
            for bar in range(3):
                bar_top = top + bar * size / 3
                self.draw.rectangle([self.px(x), self.px(bar_top), self.px(x + size * (1 - bar * 0.25)),
                                     self.px(bar_top + size / 5)], fill=ink)

    def stacked(self, field, value, x, top, right, bold_value=True):
        self.text(self.word(field), x, top, self.label_size, ink=self.style.label_ink, right=right)
        self.text(value, x, top + self.label_size * 1.25, self.value_size, bold=bold_value, right=right)

    def distractor_lines(self, top, size=None, x=None):
        size = size or self.label_size * 0.95
        for index, line in enumerate(self.style.distractors):
            self.text(line, x or self.margin, top + index * size * 1.45, size, ink=self.style.label_ink)

    def pharmacy_table(self, left, top, right):
        """A ruled grid: a tinted header row of labels over a row of values, every cell bordered."""
        fields = [("bin", self.values.bin), ("pcn", self.values.pcn), ("rx_group", self.values.rx_group)]
        size = self.value_size * 0.82
        row = size * 1.9
        column = (right - left) / 3
        tint = tuple(round(channel * 0.25 + 255 * 0.75) for channel in self.style.accent)
        line = max(2, round(self.px(0.22)))
        self.draw.rectangle([self.px(left), self.px(top), self.px(right), self.px(top + row)], fill=tint)
        self.draw.rectangle([self.px(left), self.px(top), self.px(right), self.px(top + 2 * row)],
                            outline=self.style.label_ink, width=line)
        self.draw.line([self.px(left), self.px(top + row), self.px(right), self.px(top + row)],
                       fill=self.style.label_ink, width=line)
        for index, (field, value) in enumerate(fields):
            x = left + index * column
            if index:
                self.draw.line([self.px(x), self.px(top), self.px(x), self.px(top + 2 * row)],
                               fill=self.style.label_ink, width=line)
            centre = x + column / 2
            self.text(self.word(field), centre, top + row * 0.22, size * 0.85, ink=(30, 30, 35), right=x + column - 0.8,
                      anchor="ma")
            self.text(value, centre, top + row * 1.2, size, bold=True, right=x + column - 0.8, anchor="ma")
        return top + 2 * row

    def banner(self):
        """A coloured band across the top carrying the payer; fields under labels; a ruled pharmacy grid."""
        band = 10.5 + self.rng.random() * 2.5
        self.draw.rectangle([0, 0, self.width, self.px(band)], fill=self.style.accent)
        payer_size = 4.0 + self.rng.random() * 0.8
        self.logo(self.margin, (band - payer_size) / 2, payer_size, self.style.on_accent)
        self.text(self.values.payer, self.margin + payer_size * 1.5, (band - payer_size) / 2 - 0.3, payer_size, bold=True,
                  ink=self.style.on_accent)
        top = band + 2.2
        split = CARD_WIDTH_MM * 0.58
        self.stacked("name", self.values.name, self.margin, top, split - 2)
        self.stacked("group", self.values.group, split, top, CARD_WIDTH_MM - self.margin)
        top += self.label_size * 1.25 + self.value_size + 2.0
        self.stacked("member_id", self.values.member_id, self.margin, top, split - 2)
        self.distractor_lines(top, x=split)
        self.pharmacy_table(self.margin, CARD_HEIGHT_MM - self.margin - self.value_size * 0.82 * 3.8,
                            CARD_WIDTH_MM - self.margin)

    def divider(self):
        """Labels set flush right against a vertical rule, each value beyond it on its row."""
        payer_size = 4.4 + self.rng.random() * 0.7
        self.text(self.values.payer, self.margin, self.margin, payer_size, bold=True, ink=self.style.accent)
        top = self.margin + payer_size * 1.3
        self.draw.line([self.px(self.margin), self.px(top), self.px(CARD_WIDTH_MM - self.margin), self.px(top)],
                       fill=self.style.accent, width=max(2, round(self.px(0.3))))
        top += 2.4
        size = self.value_size * 0.9
        rows = [("name", self.values.name), ("member_id", self.values.member_id), ("group", self.values.group),
                ("bin", self.values.bin), ("pcn", self.values.pcn), ("rx_group", self.values.rx_group)]
        label_font = self.font(False, size * 0.8)
        rule = self.margin + max(self.draw.textlength(self.word(field), font=label_font) for field, _ in rows) / self.scale + 1.6
        step = min(size * 1.55, (CARD_HEIGHT_MM - self.margin - top) / len(rows))
        for index, (field, value) in enumerate(rows):
            row_top = top + index * step
            self.text(self.word(field), rule - 1.2, row_top + size * 0.12, size * 0.8, ink=self.style.label_ink,
                      anchor="ra")
            self.text(value, rule + 1.4, row_top, size, bold=field in ("member_id", "name"), right=CARD_WIDTH_MM * 0.72)
        self.draw.line([self.px(rule), self.px(top - 0.5), self.px(rule), self.px(top + len(rows) * step - 0.6)],
                       fill=self.style.label_ink, width=max(1, round(self.px(0.18))))
        self.distractor_lines(top + 0.4, size=self.label_size * 0.9, x=CARD_WIDTH_MM * 0.74)

    def piped(self):
        """Centred payer and name, id and group on one line, the pharmacy fields on one line between bars."""
        payer_size = 4.6 + self.rng.random() * 0.7
        centre = CARD_WIDTH_MM / 2
        self.text(self.values.payer, centre, self.margin, payer_size, bold=True, ink=self.style.accent, anchor="ma")
        top = self.margin + payer_size * 1.6
        self.text(self.values.name, centre, top, self.value_size * 1.15, bold=True, anchor="ma")
        top += self.value_size * 1.15 + 2.6
        size = self.value_size * 0.92
        half = CARD_WIDTH_MM / 2
        for field, value, x in (("member_id", self.values.member_id, self.margin), ("group", self.values.group, half + 1)):
            width = self.text(self.word(field), x, top + size * 0.1, size * 0.8, ink=self.style.label_ink, right=x + 20)
            self.text(value, x + width + 1.2, top, size, bold=True, right=(half - 1) if x == self.margin else None)
        top += size * 2.2
        size = self.value_size * 0.8
        parts = [f"{self.word(field)} {value}" for field, value in
                 (("bin", self.values.bin), ("pcn", self.values.pcn), ("rx_group", self.values.rx_group))]
        self.text("  |  ".join(parts), centre, top, size, anchor="ma")
        self.distractor_lines(CARD_HEIGHT_MM - self.margin - self.label_size * 2.2)

    def grid(self):
        """Fields under labels in a grid, the pharmacy column at the right, the payer and mark at the bottom."""
        top = self.margin
        split = CARD_WIDTH_MM * 0.62
        self.stacked("name", self.values.name, self.margin, top, split - 2)
        top += self.label_size * 1.25 + self.value_size + 2.2
        self.stacked("member_id", self.values.member_id, self.margin, top, split - 2)
        top += self.label_size * 1.25 + self.value_size + 2.2
        self.stacked("group", self.values.group, self.margin, top, split - 2)
        pharmacy_top = self.margin
        size = self.value_size * 0.85
        for field, value in (("bin", self.values.bin), ("pcn", self.values.pcn), ("rx_group", self.values.rx_group)):
            self.text(self.word(field), split, pharmacy_top, self.label_size, ink=self.style.label_ink)
            self.text(value, split, pharmacy_top + self.label_size * 1.2, size, bold=False)
            pharmacy_top += self.label_size * 1.2 + size + 1.8
        payer_size = 3.8 + self.rng.random() * 0.7
        payer_top = CARD_HEIGHT_MM - self.margin - payer_size
        payer_width = self.draw.textlength(self.values.payer, font=self.font(True, payer_size)) / self.scale
        self.text(self.values.payer, CARD_WIDTH_MM - self.margin, payer_top, payer_size, bold=True, ink=self.style.accent,
                  anchor="ra")
        self.logo(CARD_WIDTH_MM - self.margin - payer_width - payer_size * 1.4, payer_top, payer_size, self.style.accent)
        self.distractor_lines(top + self.label_size * 1.25 + self.value_size + 1.8, x=self.margin)

    def drawn(self):
        getattr(self, self.style.layout)()
        mask = Image.new("L", (self.width, self.height), 0)
        ImageDraw.Draw(mask).rounded_rectangle([0, 0, self.width - 1, self.height - 1], radius=self.px(CORNER_MM), fill=255)
        card = self.image.convert("RGBA")
        card.putalpha(mask)
        return card


def noisy(image, sigma):
    """Grey sensor or scanner noise of the given spread added to every channel."""
    noise = Image.effect_noise(image.size, sigma)
    # Channel arithmetic clips at 0 and 255, so the noise, centred on 128, is added as its part above
    # the centre and taken away as its part below.
    offset = Image.new("L", image.size, 128)
    rgb = image.convert("RGB")
    brighter = ImageChops.subtract(noise, offset)
    darker = ImageChops.subtract(offset, noise)
    return ImageChops.subtract(ImageChops.add(rgb, Image.merge("RGB", [brighter] * 3)), Image.merge("RGB", [darker] * 3))


def scan(values, style, rng):
    """The card on a flatbed at 300 dpi: askew by up to 1.5°, dust on the glass, the scanner's noise."""
    card = Face(values, style, SCAN_DPI, rng).drawn()
    margin = round((4 + rng.random() * 6) * SCAN_DPI / 25.4)
    glass = 238 + rng.randrange(16)
    page = Image.new("RGB", (card.width + 2 * margin, card.height + 2 * margin), (glass, glass, glass))
    edge = Image.new("L", card.size, 0)
    ImageDraw.Draw(edge).rounded_rectangle([0, 0, card.width - 1, card.height - 1], radius=CORNER_MM * SCAN_DPI / 25.4,
                                           outline=255, width=3)
    page.paste((160, 160, 160), (margin + 2, margin + 3), edge.filter(ImageFilter.GaussianBlur(2)))
    page.paste(card, (margin, margin), card)
    page = page.rotate((rng.random() - 0.5) * 3, resample=Image.BICUBIC, fillcolor=(glass, glass, glass))
    dust = ImageDraw.Draw(page)
    for _ in range(rng.randrange(5, 40)):
        x, y, size = rng.random() * page.width, rng.random() * page.height, 1 + rng.random() * 2.5
        tone = rng.randrange(40, 140)
        dust.ellipse([x, y, x + size, y + size], fill=(tone, tone, tone))
    page = page.filter(ImageFilter.GaussianBlur(0.35 + rng.random() * 0.35))
    return noisy(page, 3 + rng.random() * 4)


def solve(matrix, vector):
    """Gaussian elimination with partial pivoting on a small dense system."""
    size = len(vector)
    rows = [list(matrix[index]) + [vector[index]] for index in range(size)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(rows[row][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for row in range(size):
            if row != column:
                factor = rows[row][column] / rows[column][column]
                rows[row] = [a - factor * b for a, b in zip(rows[row], rows[column])]
    return [rows[index][size] / rows[index][index] for index in range(size)]


def perspective_coefficients(frame_corners, card_corners):
    """Pillow's PERSPECTIVE data: the map from each frame pixel back to the card pixel it shows."""
    matrix, vector = [], []
    for (x, y), (u, v) in zip(frame_corners, card_corners):
        matrix.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        vector.append(u)
        matrix.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        vector.append(v)
    return solve(matrix, vector)


def desk(size, rng):
    """Wood, a ruled notebook page, cork or a dark knit, filling the frame."""
    width, height = size
    kind = rng.randrange(4)
    if kind == 0:
        base = hsv(0.07 + rng.random() * 0.04, 0.5 + rng.random() * 0.2, 0.45 + rng.random() * 0.25)
        image = Image.new("RGB", size, base)
        grain = ImageDraw.Draw(image)
        period = 14 + rng.random() * 20
        for y in range(height):
            shade = 0.82 + 0.18 * math.sin(y / period + 3 * math.sin(y / (period * 7)))
            grain.line([(0, y), (width, y + rng.randint(-3, 3))], fill=tuple(round(c * shade) for c in base))
        return image
    if kind == 1:
        image = Image.new("RGB", size, (246, 244, 236))
        lines = ImageDraw.Draw(image)
        spacing = 26 + rng.randrange(12)
        for y in range(spacing * 2, height, spacing):
            lines.line([(0, y), (width, y)], fill=(150, 180, 220), width=2)
        lines.line([(spacing * 3, 0), (spacing * 3, height)], fill=(225, 120, 120), width=2)
        return image
    if kind == 2:
        base = hsv(0.08, 0.45, 0.6 + rng.random() * 0.15)
        speckle = Image.effect_noise((width // 3, height // 3), 60).resize(size, Image.BILINEAR)
        return Image.composite(Image.new("RGB", size, base), Image.new("RGB", size, tuple(c // 2 for c in base)), speckle)
    base = hsv(rng.random(), 0.3 + rng.random() * 0.3, 0.18 + rng.random() * 0.15)
    knit = Image.effect_noise((width // 2, height // 2), 40).resize(size, Image.NEAREST)
    return Image.composite(Image.new("RGB", size, tuple(min(255, c + 40) for c in base)), Image.new("RGB", size, base), knit)


def card_in_frame(frame_size, share, rng):
    """The card's four corners in the frame: turned by up to 15°, each corner off by up to 4 % of its
    width for the phone's tilt, moved off centre, and made smaller until all of it is in the frame."""
    turn = math.radians((rng.random() - 0.5) * 30)
    jitter = [((rng.random() - 0.5) * 0.08, (rng.random() - 0.5) * 0.08) for _ in range(4)]
    off_centre = ((rng.random() - 0.5) * 0.5, (rng.random() - 0.5) * 0.5)
    width = frame_size[0] * share
    while True:
        height = width * CARD_HEIGHT_MM / CARD_WIDTH_MM
        cx = frame_size[0] / 2 + off_centre[0] * max(0, frame_size[0] - width)
        cy = frame_size[1] / 2 + off_centre[1] * max(0, frame_size[1] - height)
        corners = []
        for (ux, uy), (dx, dy) in zip(((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)), jitter):
            x, y = ux * width + dx * width, uy * height + dy * width
            corners.append((cx + x * math.cos(turn) - y * math.sin(turn), cy + x * math.sin(turn) + y * math.cos(turn)))
        inside = all(12 <= x <= frame_size[0] - 12 and 12 <= y <= frame_size[1] - 12 for x, y in corners)
        if inside:
            return corners
        width *= 0.95


def photo(values, style, rng):
    """The card as a phone sees it: perspective, a shadow, a colour cast, vignette, glare, blur, noise."""
    portrait = rng.random() < 0.3
    frame_size = (960, 1280) if portrait else rng.choice([(1280, 960), (1600, 900)])
    card = Face(values, style, 220 + rng.randrange(60), rng).drawn()
    frame = desk(frame_size, rng)
    corners = card_in_frame(frame_size, (0.7 + rng.random() * 0.22) if portrait else (0.5 + rng.random() * 0.35), rng)
    shadow = Image.new("L", frame_size, 0)
    ImageDraw.Draw(shadow).polygon([(x + 8, y + 12) for x, y in corners], fill=110)
    frame.paste((0, 0, 0), (0, 0), shadow.filter(ImageFilter.GaussianBlur(10)))
    card_corners = [(0, 0), (card.width, 0), (card.width, card.height), (0, card.height)]
    warped = card.transform(frame_size, Image.PERSPECTIVE, perspective_coefficients(corners, card_corners),
                            Image.BICUBIC)
    frame.paste(warped, (0, 0), warped)
    cast = hsv(0.08 + rng.random() * 0.5, 0.12 + rng.random() * 0.1, 1.0)
    frame = ImageChops.multiply(frame, Image.new("RGB", frame_size, cast))
    falloff = 0.15 + rng.random() * 0.25
    vignette = Image.radial_gradient("L").resize(frame_size).point(lambda level: 255 - round(level * falloff))
    frame = ImageChops.multiply(frame, Image.merge("RGB", [vignette] * 3))
    glare = Image.new("L", frame_size, 0)
    gx, gy = rng.uniform(0.25, 0.75) * frame_size[0], rng.uniform(0.25, 0.75) * frame_size[1]
    radius = frame_size[0] * rng.uniform(0.05, 0.14)
    ImageDraw.Draw(glare).ellipse([gx - radius * 1.6, gy - radius, gx + radius * 1.6, gy + radius], fill=rng.randrange(70, 190))
    frame.paste((255, 255, 250), (0, 0), glare.filter(ImageFilter.GaussianBlur(radius * 0.45)))
    if rng.random() < 0.35:
        frame = frame.filter(ImageFilter.BoxBlur(1))
    frame = frame.filter(ImageFilter.GaussianBlur(0.5 + rng.random() * 0.8))
    return noisy(frame, 4 + rng.random() * 6)


def stored_as_a_phone_stores_it(image, rng):
    """Upright, or turned with the EXIF orientation (3, 6 or 8) that a viewer undoes."""
    orientation = rng.choice([1, 1, 3, 6, 8])
    stored = {1: image, 3: image.transpose(Image.ROTATE_180), 6: image.transpose(Image.ROTATE_90),
              8: image.transpose(Image.ROTATE_270)}[orientation]
    exif = Image.Exif()
    exif[EXIF_ORIENTATION] = orientation
    return stored, exif


def missing_faces():
    return [path for pair in FACES for path in pair if not os.path.exists(path)]


def main():
    if sys.argv[1:] == ["--check"]:
        missing = missing_faces()
        if missing:
            print("\n".join(missing))
        sys.exit(1 if missing else 0)
    for line in sys.stdin:
        if not line.strip():
            continue
        cells = line.rstrip("\n").split("\t")
        rng = random.Random(int(cells[0]) * 7919 + 5)
        values = Values(*cells[3:10])
        style = style_for(rng)
        if cells[1] == "scan":
            scan(values, style, rng).save(cells[2], "PNG")
        else:
            image, exif = stored_as_a_phone_stores_it(photo(values, style, rng), rng)
            image.save(cells[2], "JPEG", quality=rng.randrange(60, 88), exif=exif.tobytes())


if __name__ == "__main__":
    main()
