import { describe, expect, it } from "vitest";
import { detectionText } from "./detection-text.js";

describe("detectionText", () => {
  it("is the text itself for plain ASCII", () => {
    const folded = detectionText("password=hunter2");
    expect(folded.text).toBe("password=hunter2");
    expect(folded.toInput(9, 16)).toEqual({ start: 9, end: 16 });
  });

  it("drops invisible characters and combining marks, and maps spans across them", () => {
    const input = "AKIA\u200BZX\u00ADCV\u2060B\uFEFFN";
    const folded = detectionText(input);
    expect(folded.text).toBe("AKIAZXCVBN");
    expect(folded.toInput(0, folded.text.length)).toEqual({ start: 0, end: input.length });
    expect(detectionText("a\u0301b\u20DD").text).toBe("ab");
  });

  it("folds fullwidth, mathematical and Cyrillic look-alike letters and other spaces to plain ones", () => {
    expect(detectionText("ｐａｓｓｗｏｒｄ＝ｘ").text).toBe("password=x");
    expect(detectionText("𝐀𝐊𝐈𝐀𝟓").text).toBe("AKIA5");
    expect(detectionText("\u0440\u0430ssword").text).toBe("password");
    expect(detectionText("a\u00A0b\u3000c").text).toBe("a b c");
    expect(detectionText("ᴘᴀꜱꜱᴡᴏʀᴅ").text).toBe("password");
    expect(detectionText("xoxb\u2011123\u2013456\u2212789").text).toBe("xoxb-123-456-789");
  });

  it("maps a span of a folded astral or fullwidth letter back to the whole code point", () => {
    const input = "x 𝐀𝐊 y";
    const folded = detectionText(input);
    expect(folded.text).toBe("x AK y");
    const { start, end } = folded.toInput(2, 4);
    expect(input.slice(start, end)).toBe("𝐀𝐊");
  });

  it("folds only the look-alike letters of another script, so that its words match no Latin pattern", () => {
    // П, л and ь have no Latin look-alike; а, р and о do.
    expect(detectionText("Пароль").text).toBe("Пapoль");
    expect(detectionText("日本語のテキスト").text).toBe("日本語のテキスト");
  });
});
