import java.awt.AlphaComposite;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RadialGradientPaint;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.geom.Arc2D;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.awt.image.ConvolveOp;
import java.awt.image.Kernel;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.FileImageOutputStream;

/**
 * Insurance cards drawn by Java 2D (OpenJDK's AWT, headless), the bench's fourth renderer: its
 * rasteriser, its layouts, its label wordings and its photo effects share nothing with the other three.
 * Only the printed values come from the bench (`randomCard` in bench/chromium-cards.ts).
 *
 * Reads one card per line on standard input, tab-separated: seed, form (scan or photo), the output
 * file, then payer, member name, member id as printed, group, BIN, PCN and RxGroup. Writes a PNG for a
 * scan and a JPEG for a photo. A face this machine lacks fails the run rather than be replaced by the
 * one AWT substitutes.
 */
public final class DrawCards {
  /** ISO/IEC 7810 ID-1, in millimetres: the card is drawn in millimetres. */
  private static final double CARD_WIDTH = 85.6;
  private static final double CARD_HEIGHT = 54;
  private static final double CORNER = 3.18;
  private static final int SCAN_DPI = 300;
  private static final int PHOTO_CARD_DPI = 260;
  private static final int FRAME_WIDTH = 1400;
  private static final int FRAME_HEIGHT = 1050;

  private static final String[] FACES = {
    "DejaVu Sans", "DejaVu Sans Condensed", "DejaVu Serif", "Liberation Sans",
    "Liberation Sans Narrow", "Liberation Serif", "Liberation Mono", "Noto Sans Mono",
  };
  private static final String[] MEMBER_ID_WORDS = {
    "Member ID", "ID", "Member Number", "Subscriber ID", "ID No.", "Member #",
  };
  private static final String[] GROUP_WORDS = {"Group", "Group #", "Group No", "GRP", "Group Number"};
  private static final String[] NAME_WORDS = {"Name", "Member", "Member Name", "Subscriber"};
  private static final String[] BIN_WORDS = {"RxBIN", "Rx BIN", "BIN"};
  private static final String[] PCN_WORDS = {"RxPCN", "Rx PCN", "PCN"};
  private static final String[] RX_GROUP_WORDS = {"RxGRP", "Rx Grp", "RxGroup"};
  private static final String[] PLANS = {"PPO", "Open Access", "Choice Plus", "HMO", "Gold 1500"};

  private record Values(
      String payer, String name, String memberId, String group, String bin, String pcn, String rxGroup) {}

  private record Style(
      String face,
      Color ground,
      Color groundTo,
      Color ink,
      Color labelInk,
      Color accent,
      Color onAccent,
      boolean swoosh,
      boolean colon,
      boolean upperLabels,
      boolean boldValues,
      boolean otherPrint,
      String layout,
      String memberIdWord,
      String groupWord,
      String nameWord,
      String binWord,
      String pcnWord,
      String rxGroupWord,
      String plan) {}

  public static void main(String[] arguments) throws Exception {
    System.setProperty("java.awt.headless", "true");
    BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = input.readLine(); line != null; line = input.readLine()) {
      if (line.isBlank()) continue;
      String[] cells = line.split("\t", -1);
      Random random = new Random(Long.parseLong(cells[0]) * 0x5DEECE66DL + 11);
      Values values = new Values(cells[3], cells[4], cells[5], cells[6], cells[7], cells[8], cells[9]);
      Style style = style(random);
      File output = new File(cells[2]);
      if (cells[1].equals("scan")) ImageIO.write(scan(values, style, random), "png", output);
      else writeJpeg(photo(values, style, random), output, 0.7f + random.nextFloat() * 0.2f);
    }
  }

  private static <T> T pick(Random random, T[] items) {
    return items[random.nextInt(items.length)];
  }

  private static Style style(Random random) {
    float hue = random.nextFloat();
    boolean dark = random.nextDouble() < 0.25;
    boolean gradient = random.nextDouble() < 0.5;
    Color ground = dark
        ? Color.getHSBColor(hue, 0.55f + random.nextFloat() * 0.3f, 0.3f + random.nextFloat() * 0.2f)
        : Color.getHSBColor(hue, 0.04f + random.nextFloat() * 0.12f, 0.95f + random.nextFloat() * 0.05f);
    Color groundTo = !gradient
        ? ground
        : dark
            ? Color.getHSBColor(hue + 0.08f, 0.6f, 0.55f + random.nextFloat() * 0.15f)
            : Color.getHSBColor(hue + 0.05f, 0.18f + random.nextFloat() * 0.15f, 0.86f + random.nextFloat() * 0.08f);
    Color ink = dark ? Color.WHITE : random.nextDouble() < 0.5 ? new Color(20, 20, 24) : Color.getHSBColor(hue, 0.6f, 0.25f);
    Color labelInk = dark ? new Color(225, 228, 235) : Color.getHSBColor(hue, 0.2f, 0.38f + random.nextFloat() * 0.12f);
    Color accent = dark ? Color.getHSBColor(hue, 0.1f, 0.95f) : Color.getHSBColor(hue + 0.5f, 0.65f, 0.45f);
    Color onAccent = dark ? Color.getHSBColor(hue, 0.7f, 0.25f) : Color.WHITE;
    String[] layouts = {"ledger", "strip", "centred", "id-first"};
    boolean upperLabels = random.nextDouble() < 0.4;
    return new Style(
        pick(random, FACES),
        ground,
        groundTo,
        ink,
        labelInk,
        accent,
        onAccent,
        random.nextDouble() < 0.4,
        random.nextDouble() < 0.6,
        upperLabels,
        random.nextDouble() < 0.4,
        random.nextDouble() < 0.6,
        pick(random, layouts),
        pick(random, MEMBER_ID_WORDS),
        pick(random, GROUP_WORDS),
        pick(random, NAME_WORDS),
        pick(random, BIN_WORDS),
        pick(random, PCN_WORDS),
        pick(random, RX_GROUP_WORDS),
        pick(random, PLANS));
  }

  /** The card at the given resolution, transparent outside its rounded outline. */
  private static BufferedImage card(Values values, Style style, int dpi, Random random) {
    double pixelsPerMm = dpi / 25.4;
    int width = (int) Math.round(CARD_WIDTH * pixelsPerMm);
    int height = (int) Math.round(CARD_HEIGHT * pixelsPerMm);
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_ON);
    g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
    g.scale(pixelsPerMm, pixelsPerMm);
    RoundRectangle2D outline = new RoundRectangle2D.Double(0, 0, CARD_WIDTH, CARD_HEIGHT, 2 * CORNER, 2 * CORNER);
    g.clip(outline);
    g.setPaint(new GradientPaint(0, 0, style.ground(), (float) CARD_WIDTH, (float) CARD_HEIGHT, style.groundTo()));
    g.fill(outline);
    if (style.swoosh()) swoosh(g, style, random);
    new Face(g, values, style, random).draw();
    g.dispose();
    return image;
  }

  /** A translucent sweep of the accent across a corner, as card designs carry. */
  private static void swoosh(Graphics2D g, Style style, Random random) {
    Color accent = style.accent();
    g.setColor(new Color(accent.getRed(), accent.getGreen(), accent.getBlue(), 28 + random.nextInt(30)));
    double reach = 40 + random.nextDouble() * 30;
    boolean right = random.nextBoolean();
    double x = right ? CARD_WIDTH - reach * 0.6 : -reach * 0.4;
    g.fill(new Ellipse2D.Double(x, CARD_HEIGHT - reach * 0.45, reach, reach));
    g.setStroke(new BasicStroke(0.8f));
    g.draw(new Arc2D.Double(x - 6, CARD_HEIGHT - reach * 0.55, reach + 12, reach, 20, 140, Arc2D.OPEN));
  }

  /** Lays out one card face in millimetres. */
  private static final class Face {
    private final Graphics2D g;
    private final Values values;
    private final Style style;
    private final Random random;
    private final double margin;
    private final double valueSize;
    private final double labelSize;

    Face(Graphics2D g, Values values, Style style, Random random) {
      this.g = g;
      this.values = values;
      this.style = style;
      this.random = random;
      this.margin = 4 + random.nextDouble() * 1.8;
      this.valueSize = 2.9 + random.nextDouble() * 0.7;
      this.labelSize = valueSize * (0.6 + random.nextDouble() * 0.25);
    }

    void draw() {
      switch (style.layout()) {
        case "ledger" -> ledger();
        case "strip" -> strip();
        case "centred" -> centred();
        default -> idFirst();
      }
    }

    private Font font(boolean bold, double size) {
      Font font = new Font(style.face(), bold ? Font.BOLD : Font.PLAIN, 10);
      if (!font.getFamily().equals(style.face()))
        throw new IllegalStateException("This machine lacks the face " + style.face());
      return font.deriveFont((float) size);
    }

    private String word(String word) {
      String shown = style.upperLabels() ? word.toUpperCase() : word;
      return style.colon() ? shown + ":" : shown;
    }

    /** Text whose em box starts at top, narrowed to end by right; returns its advance. */
    private double text(String text, double x, double top, Font font, Color ink, double right) {
      double width = width(text, font);
      g.setColor(ink);
      double baseline = top + font.getSize2D() * 0.8;
      if (x + width <= right) {
        g.drawString(text, (float) x, (float) baseline);
        return width;
      }
      AffineTransform saved = g.getTransform();
      g.translate(x, baseline);
      g.scale((right - x) / width, 1);
      g.drawString(text, 0f, 0f);
      g.setTransform(saved);
      return right - x;
    }

    private double width(String text, Font font) {
      g.setFont(font);
      return g.getFontMetrics().getStringBounds(text, g).getWidth();
    }

    private double textCentred(String text, double centre, double top, Font font, Color ink) {
      return text(text, centre - width(text, font) / 2, top, font, ink, CARD_WIDTH - margin);
    }

    private Font valueFont(double size) {
      return font(style.boldValues(), size);
    }

    /**
     * The payer's name at the top left, narrowed to end 3 mm short of the plan's name at the top right,
     * as printed cards keep them apart; returns the next top.
     */
    private double header(double payerSize) {
      Font planFont = font(false, labelSize * 1.1);
      double planWidth = width(style.plan(), planFont);
      text(values.payer(), margin, margin, font(true, payerSize), style.accent(), CARD_WIDTH - margin - planWidth - 3);
      text(style.plan(), CARD_WIDTH - margin - planWidth, margin + (payerSize - labelSize) / 2, planFont, style.labelInk(), CARD_WIDTH);
      double rule = margin + payerSize * 1.25;
      g.setColor(style.accent());
      g.fill(new Rectangle2D.Double(margin, rule, CARD_WIDTH - 2 * margin, 0.35));
      return rule + 2.2;
    }

    /** A label, then its value from the tab stop, on one line. */
    private void row(String label, String value, double x, double tab, double top, double size, double right) {
      text(word(label), x, top, font(false, size * 0.9), style.labelInk(), tab - 0.8);
      text(value, tab, top - size * 0.05, valueFont(size), style.ink(), right);
    }

    /** A small label over its value. */
    private void stacked(String label, String value, double x, double top, double right) {
      text(word(label), x, top, font(false, labelSize), style.labelInk(), right);
      text(value, x, top + labelSize + 0.5, valueFont(valueSize), style.ink(), right);
    }

    private double labelWidth(double size, String... labels) {
      double widest = 0;
      for (String label : labels) widest = Math.max(widest, width(word(label), font(false, size * 0.9)));
      return widest + 1.6;
    }

    /** Member fields in a tab-aligned column at the left, the pharmacy block boxed at the right. */
    private void ledger() {
      double top = header(4.4 + random.nextDouble() * 0.8);
      double boxLeft = CARD_WIDTH * 0.6;
      double size = valueSize * 0.92;
      double tab = margin + labelWidth(size, style.nameWord(), style.memberIdWord(), style.groupWord());
      String[][] rows = {
        {style.nameWord(), values.name()}, {style.memberIdWord(), values.memberId()}, {style.groupWord(), values.group()},
      };
      for (int index = 0; index < rows.length; index += 1)
        row(rows[index][0], rows[index][1], margin, tab, top + index * size * 1.9, size, boxLeft - 1.5);
      double pharmacySize = size * 0.9;
      double boxTop = top - 0.6;
      g.setColor(style.labelInk());
      g.setStroke(new BasicStroke(0.25f));
      g.draw(new RoundRectangle2D.Double(boxLeft, boxTop, CARD_WIDTH - margin - boxLeft, pharmacySize * 6.4, 1.6, 1.6));
      double pharmacyTab = boxLeft + 1.4 + labelWidth(pharmacySize, style.binWord(), style.pcnWord(), style.rxGroupWord());
      String[][] pharmacy = {{style.binWord(), values.bin()}, {style.pcnWord(), values.pcn()}, {style.rxGroupWord(), values.rxGroup()}};
      for (int index = 0; index < pharmacy.length; index += 1)
        row(pharmacy[index][0], pharmacy[index][1], boxLeft + 1.4, pharmacyTab, boxTop + 1 + index * pharmacySize * 1.9, pharmacySize, CARD_WIDTH - margin - 1);
      if (style.otherPrint()) otherPrint(CARD_HEIGHT - margin - labelSize * 2.6);
    }

    /** Name large, id and group side by side under small labels, the pharmacy fields in a band at the bottom. */
    private void strip() {
      double top = header(4.2 + random.nextDouble() * 0.9);
      text(values.name(), margin, top, font(true, valueSize * 1.15), style.ink(), CARD_WIDTH - margin);
      top += valueSize * 1.15 + 2.2;
      double split = margin + (CARD_WIDTH - 2 * margin) * 0.58;
      stacked(style.memberIdWord(), values.memberId(), margin, top, split - 2);
      stacked(style.groupWord(), values.group(), split, top, CARD_WIDTH - margin);
      double bandSize = valueSize * 0.85;
      double bandHeight = bandSize * 2.2;
      double bandTop = CARD_HEIGHT - bandHeight - (style.otherPrint() ? labelSize * 1.8 + 1 : 0);
      g.setColor(style.accent());
      g.fill(new Rectangle2D.Double(0, bandTop, CARD_WIDTH, bandHeight));
      String[][] pharmacy = {{style.binWord(), values.bin()}, {style.pcnWord(), values.pcn()}, {style.rxGroupWord(), values.rxGroup()}};
      double textTop = bandTop + (bandHeight - bandSize) / 2;
      double[] widths = new double[pharmacy.length];
      double printed = 0;
      for (int index = 0; index < pharmacy.length; index += 1) {
        widths[index] = width(word(pharmacy[index][0]) + " ", font(false, bandSize)) + width(pharmacy[index][1], font(true, bandSize));
        printed += widths[index];
      }
      double gap = Math.max(3, (CARD_WIDTH - 2 * margin - printed) / 2);
      double x = margin;
      for (int index = 0; index < pharmacy.length; index += 1) {
        double advance = text(word(pharmacy[index][0]) + " ", x, textTop, font(false, bandSize), style.onAccent(), CARD_WIDTH - margin);
        text(pharmacy[index][1], x + advance, textTop, font(true, bandSize), style.onAccent(), CARD_WIDTH - margin);
        x += widths[index] + gap;
      }
      if (style.otherPrint()) otherPrint(CARD_HEIGHT - labelSize * 1.6);
    }

    /** Every line centred: payer, name, id, group, then the pharmacy fields paired under each other. */
    private void centred() {
      double centre = CARD_WIDTH / 2;
      double payerSize = 4.6 + random.nextDouble() * 0.8;
      textCentred(values.payer(), centre, margin, font(true, payerSize), style.accent());
      double top = margin + payerSize * 1.5;
      double size = valueSize * 0.95;
      String[][] rows = {
        {style.nameWord(), values.name()}, {style.memberIdWord(), values.memberId()}, {style.groupWord(), values.group()},
      };
      for (String[] row : rows) {
        textCentred(word(row[0]) + " " + row[1], centre, top, valueFont(size), style.ink());
        top += size * 1.75;
      }
      top += 1.2;
      double pharmacySize = size * 0.85;
      textCentred(word(style.binWord()) + " " + values.bin() + "     " + word(style.pcnWord()) + " " + values.pcn(), centre, top, font(false, pharmacySize), style.ink());
      textCentred(word(style.rxGroupWord()) + " " + values.rxGroup(), centre, top + pharmacySize * 1.7, font(false, pharmacySize), style.ink());
      if (style.otherPrint()) otherPrint(CARD_HEIGHT - margin - labelSize * 0.8);
    }

    /** The member id first and largest, then name and group, then an unruled table of the pharmacy fields. */
    private void idFirst() {
      double top = header(4.0 + random.nextDouble() * 0.8);
      stacked(style.memberIdWord(), values.memberId(), margin, top, CARD_WIDTH - margin);
      top += labelSize + valueSize + 2.4;
      double split = margin + (CARD_WIDTH - 2 * margin) * 0.55;
      stacked(style.nameWord(), values.name(), margin, top, split - 2);
      stacked(style.groupWord(), values.group(), split, top, CARD_WIDTH - margin);
      top += labelSize + valueSize + 2.6;
      String[][] pharmacy = {{style.binWord(), values.bin()}, {style.pcnWord(), values.pcn()}, {style.rxGroupWord(), values.rxGroup()}};
      double column = (CARD_WIDTH - 2 * margin) / 3.2;
      for (int index = 0; index < pharmacy.length; index += 1) {
        double x = margin + index * column;
        text(word(pharmacy[index][0]), x, top, font(true, labelSize), style.labelInk(), x + column - 1.5);
        text(pharmacy[index][1], x, top + labelSize + 0.6, valueFont(valueSize * 0.88), style.ink(), x + column - 1.5);
      }
      if (style.otherPrint() && top + labelSize + valueSize + 2 < CARD_HEIGHT - margin)
        otherPrint(CARD_HEIGHT - margin * 0.8 - labelSize);
    }

    /** A line no field reads: copays or a service number, small along the bottom. */
    private void otherPrint(double top) {
      String line = random.nextBoolean()
          ? "Office $" + (15 + 5 * random.nextInt(4)) + "   Specialist $" + (35 + 5 * random.nextInt(6)) + "   ER $" + (150 + 50 * random.nextInt(4))
          : "Customer Service 1-888-" + (200 + random.nextInt(700)) + "-" + (1000 + random.nextInt(9000));
      text(line, margin, top, font(false, labelSize * 0.95), style.labelInk(), CARD_WIDTH - margin);
    }
  }

  /** The card on a flatbed at 300 dpi: up to 1.2° askew, its edge faint, the glass a little noisy. */
  private static BufferedImage scan(Values values, Style style, Random random) {
    BufferedImage card = card(values, style, SCAN_DPI, random);
    double pixelsPerMm = SCAN_DPI / 25.4;
    int margin = (int) Math.round((5 + random.nextDouble() * 4) * pixelsPerMm);
    BufferedImage page = new BufferedImage(card.getWidth() + 2 * margin, card.getHeight() + 2 * margin, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = page.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BICUBIC);
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    int glass = 240 + random.nextInt(14);
    g.setColor(new Color(glass, glass, glass - 2));
    g.fillRect(0, 0, page.getWidth(), page.getHeight());
    g.rotate(Math.toRadians((random.nextDouble() - 0.5) * 2.4), page.getWidth() / 2.0, page.getHeight() / 2.0);
    g.setColor(new Color(150, 150, 150));
    g.setStroke(new BasicStroke(1.5f));
    g.draw(new RoundRectangle2D.Double(margin, margin, card.getWidth(), card.getHeight(), 2 * CORNER * pixelsPerMm, 2 * CORNER * pixelsPerMm));
    g.drawImage(card, margin, margin, null);
    g.dispose();
    addNoise(page, 2 + random.nextDouble() * 2, random);
    return page;
  }

  /**
   * The card as a phone sees it on a desk: a perspective of up to 10° turn and a few percent of tilt
   * per corner, a shadow, uneven light, a glare, lens blur and sensor noise, held at a quarter turn.
   */
  private static BufferedImage photo(Values values, Style style, Random random) {
    BufferedImage card = card(values, style, PHOTO_CARD_DPI, random);
    BufferedImage frame = new BufferedImage(FRAME_WIDTH, FRAME_HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = frame.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    desk(g, random);
    double width = FRAME_WIDTH * (0.58 + random.nextDouble() * 0.27);
    double height = width * CARD_HEIGHT / CARD_WIDTH;
    double turn = Math.toRadians((random.nextDouble() - 0.5) * 20);
    double cx = FRAME_WIDTH / 2.0 + (random.nextDouble() - 0.5) * (FRAME_WIDTH - width) * 0.6;
    double cy = FRAME_HEIGHT / 2.0 + (random.nextDouble() - 0.5) * Math.max(0, FRAME_HEIGHT - height) * 0.5;
    double[][] unit = {{-0.5, -0.5}, {0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}};
    double[][] corners = new double[4][2];
    for (int index = 0; index < 4; index += 1) {
      double x = unit[index][0] * width + (random.nextDouble() - 0.5) * width * 0.06;
      double y = unit[index][1] * height + (random.nextDouble() - 0.5) * width * 0.06;
      corners[index][0] = cx + x * Math.cos(turn) - y * Math.sin(turn);
      corners[index][1] = cy + x * Math.sin(turn) + y * Math.cos(turn);
    }
    Path2D shadow = new Path2D.Double();
    shadow.moveTo(corners[0][0] + 6, corners[0][1] + 9);
    for (int index = 1; index < 4; index += 1) shadow.lineTo(corners[index][0] + 6, corners[index][1] + 9);
    shadow.closePath();
    g.setComposite(AlphaComposite.getInstance(AlphaComposite.SRC_OVER, 0.35f));
    g.setColor(Color.BLACK);
    g.fill(shadow);
    g.setComposite(AlphaComposite.SrcOver);
    g.dispose();
    warp(card, frame, corners);
    light(frame, random);
    BufferedImage blurred = blur(frame, 0.5 + random.nextDouble() * 0.7);
    addNoise(blurred, 3 + random.nextDouble() * 4, random);
    return turned(blurred, random.nextInt(4));
  }

  /** Linen, a granite top or a gingham cloth, filling the frame. */
  private static void desk(Graphics2D g, Random random) {
    float hue = random.nextFloat();
    int kind = random.nextInt(3);
    g.setColor(Color.getHSBColor(hue, 0.15f + random.nextFloat() * 0.3f, 0.3f + random.nextFloat() * 0.4f));
    g.fillRect(0, 0, FRAME_WIDTH, FRAME_HEIGHT);
    if (kind == 0) {
      g.setStroke(new BasicStroke(1f));
      for (int y = 0; y < FRAME_HEIGHT; y += 3) {
        int tone = random.nextInt(40) - 20;
        g.setColor(new Color(128 + tone, 128 + tone, 128 + tone, 40));
        g.drawLine(0, y, FRAME_WIDTH, y + random.nextInt(5) - 2);
      }
    } else if (kind == 1) {
      for (int speck = 0; speck < 26000; speck += 1) {
        int tone = random.nextInt(256);
        g.setColor(new Color(tone, tone, tone, 90 + random.nextInt(120)));
        double size = 1 + random.nextDouble() * 4;
        g.fill(new Ellipse2D.Double(random.nextDouble() * FRAME_WIDTH, random.nextDouble() * FRAME_HEIGHT, size, size));
      }
    } else {
      Color stripe = Color.getHSBColor(hue + 0.5f, 0.6f, 0.6f);
      int step = 24 + random.nextInt(30);
      g.setColor(new Color(stripe.getRed(), stripe.getGreen(), stripe.getBlue(), 110));
      for (int x = 0; x < FRAME_WIDTH; x += 2 * step) g.fillRect(x, 0, step, FRAME_HEIGHT);
      for (int y = 0; y < FRAME_HEIGHT; y += 2 * step) g.fillRect(0, y, FRAME_WIDTH, step);
    }
  }

  /**
   * Lays the card onto the frame through the homography that takes its rectangle to the four corners:
   * each frame pixel inside is sampled bilinearly from where it came from on the card.
   */
  private static void warp(BufferedImage card, BufferedImage frame, double[][] corners) {
    double[] toFrame = squareToQuad(corners);
    double[] toSquare = inverse(toFrame);
    int left = (int) Math.max(0, Math.floor(Math.min(Math.min(corners[0][0], corners[1][0]), Math.min(corners[2][0], corners[3][0]))));
    int right = (int) Math.min(FRAME_WIDTH - 1, Math.ceil(Math.max(Math.max(corners[0][0], corners[1][0]), Math.max(corners[2][0], corners[3][0]))));
    int top = (int) Math.max(0, Math.floor(Math.min(Math.min(corners[0][1], corners[1][1]), Math.min(corners[2][1], corners[3][1]))));
    int bottom = (int) Math.min(FRAME_HEIGHT - 1, Math.ceil(Math.max(Math.max(corners[0][1], corners[1][1]), Math.max(corners[2][1], corners[3][1]))));
    for (int y = top; y <= bottom; y += 1)
      for (int x = left; x <= right; x += 1) {
        double w = toSquare[6] * x + toSquare[7] * y + toSquare[8];
        double u = (toSquare[0] * x + toSquare[1] * y + toSquare[2]) / w;
        double v = (toSquare[3] * x + toSquare[4] * y + toSquare[5]) / w;
        if (u < 0 || u > 1 || v < 0 || v > 1) continue;
        int[] sample = bilinear(card, u * (card.getWidth() - 1), v * (card.getHeight() - 1));
        if (sample[3] == 0) continue;
        int under = frame.getRGB(x, y);
        double alpha = sample[3] / 255.0;
        int red = (int) Math.round(sample[0] * alpha + ((under >> 16) & 255) * (1 - alpha));
        int green = (int) Math.round(sample[1] * alpha + ((under >> 8) & 255) * (1 - alpha));
        int blue = (int) Math.round(sample[2] * alpha + (under & 255) * (1 - alpha));
        frame.setRGB(x, y, (red << 16) | (green << 8) | blue);
      }
  }

  /** The projective map of the unit square onto the quadrilateral, row-major 3 × 3 (Heckbert). */
  private static double[] squareToQuad(double[][] q) {
    double sx = q[0][0] - q[1][0] + q[2][0] - q[3][0];
    double sy = q[0][1] - q[1][1] + q[2][1] - q[3][1];
    double dx1 = q[1][0] - q[2][0], dx2 = q[3][0] - q[2][0], dy1 = q[1][1] - q[2][1], dy2 = q[3][1] - q[2][1];
    double determinant = dx1 * dy2 - dx2 * dy1;
    double g = (sx * dy2 - dx2 * sy) / determinant;
    double h = (dx1 * sy - sx * dy1) / determinant;
    return new double[] {
      q[1][0] - q[0][0] + g * q[1][0], q[3][0] - q[0][0] + h * q[3][0], q[0][0],
      q[1][1] - q[0][1] + g * q[1][1], q[3][1] - q[0][1] + h * q[3][1], q[0][1],
      g, h, 1,
    };
  }

  /** The adjugate: the inverse up to a scale, which a homography ignores. */
  private static double[] inverse(double[] m) {
    return new double[] {
      m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
      m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
      m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
    };
  }

  private static int[] bilinear(BufferedImage image, double x, double y) {
    int x0 = (int) Math.floor(x), y0 = (int) Math.floor(y);
    int x1 = Math.min(x0 + 1, image.getWidth() - 1), y1 = Math.min(y0 + 1, image.getHeight() - 1);
    double fx = x - x0, fy = y - y0;
    int[] pixels = {image.getRGB(x0, y0), image.getRGB(x1, y0), image.getRGB(x0, y1), image.getRGB(x1, y1)};
    double[] weights = {(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy};
    int[] sample = new int[4];
    for (int channel = 0; channel < 4; channel += 1) {
      int shift = channel == 3 ? 24 : 16 - 8 * channel;
      double sum = 0;
      for (int index = 0; index < 4; index += 1) sum += ((pixels[index] >>> shift) & 255) * weights[index];
      sample[channel] = (int) Math.round(sum);
    }
    return sample;
  }

  /** Light falling off across the frame, and a glare where a lamp shows in the card's gloss. */
  private static void light(BufferedImage frame, Random random) {
    Graphics2D g = frame.createGraphics();
    float shade = 0.1f + random.nextFloat() * 0.2f;
    g.setPaint(new GradientPaint(0, 0, new Color(0, 0, 0, 0), FRAME_WIDTH * random.nextFloat(), FRAME_HEIGHT, new Color(0, 0, 0, shade)));
    g.fillRect(0, 0, FRAME_WIDTH, FRAME_HEIGHT);
    float radius = FRAME_WIDTH * (0.12f + random.nextFloat() * 0.2f);
    float x = FRAME_WIDTH * (0.25f + random.nextFloat() * 0.5f);
    float y = FRAME_HEIGHT * (0.25f + random.nextFloat() * 0.5f);
    int strength = 80 + random.nextInt(110);
    g.setPaint(new RadialGradientPaint(x, y, radius, new float[] {0f, 1f}, new Color[] {new Color(255, 255, 250, strength), new Color(255, 255, 250, 0)}));
    g.fillRect(0, 0, FRAME_WIDTH, FRAME_HEIGHT);
    g.dispose();
  }

  private static BufferedImage blur(BufferedImage image, double sigma) {
    int radius = (int) Math.ceil(sigma * 2.5);
    int size = 2 * radius + 1;
    float[] kernel = new float[size * size];
    float sum = 0;
    for (int y = -radius; y <= radius; y += 1)
      for (int x = -radius; x <= radius; x += 1) {
        float weight = (float) Math.exp(-(x * x + y * y) / (2 * sigma * sigma));
        kernel[(y + radius) * size + x + radius] = weight;
        sum += weight;
      }
    for (int index = 0; index < kernel.length; index += 1) kernel[index] /= sum;
    return new ConvolveOp(new Kernel(size, size, kernel), ConvolveOp.EDGE_NO_OP, null).filter(image, null);
  }

  private static void addNoise(BufferedImage image, double amplitude, Random random) {
    for (int y = 0; y < image.getHeight(); y += 1)
      for (int x = 0; x < image.getWidth(); x += 1) {
        int pixel = image.getRGB(x, y);
        int offset = (int) Math.round(random.nextGaussian() * amplitude);
        int red = Math.max(0, Math.min(255, ((pixel >> 16) & 255) + offset));
        int green = Math.max(0, Math.min(255, ((pixel >> 8) & 255) + offset));
        int blue = Math.max(0, Math.min(255, (pixel & 255) + offset));
        image.setRGB(x, y, (red << 16) | (green << 8) | blue);
      }
  }

  private static BufferedImage turned(BufferedImage image, int quarterTurns) {
    if (quarterTurns == 0) return image;
    boolean sideways = quarterTurns % 2 == 1;
    int width = sideways ? image.getHeight() : image.getWidth();
    int height = sideways ? image.getWidth() : image.getHeight();
    BufferedImage turned = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = turned.createGraphics();
    g.translate(width / 2.0, height / 2.0);
    g.rotate(quarterTurns * Math.PI / 2);
    g.drawImage(image, -image.getWidth() / 2, -image.getHeight() / 2, null);
    g.dispose();
    return turned;
  }

  private static void writeJpeg(BufferedImage image, File output, float quality) throws Exception {
    ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
    ImageWriteParam parameters = writer.getDefaultWriteParam();
    parameters.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
    parameters.setCompressionQuality(quality);
    try (FileImageOutputStream stream = new FileImageOutputStream(output)) {
      writer.setOutput(stream);
      writer.write(null, new IIOImage(image, null, null), parameters);
    } finally {
      writer.dispose();
    }
  }
}
