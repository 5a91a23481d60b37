import { describe, expect, it } from "vitest";
import { jsgfGrammar, parseVoice } from "#app/services/perio/voice-grammar.ts";

describe("voice grammar", () => {
  it("reads values and triplets in English and French", () => {
    expect(parseVoice("three two three", "en")).toEqual({ kind: "values", values: [3, 2, 3] });
    expect(parseVoice("twelve", "en")).toEqual({ kind: "values", values: [12] });
    expect(parseVoice("trois deux quatorze", "fr")).toEqual({ kind: "values", values: [3, 2, 14] });
  });
  it("reads commands with their numbers", () => {
    expect(parseVoice("bleeding", "en")).toEqual({ kind: "flag", flag: "bop" });
    expect(parseVoice("tooth twenty four", "en")).toEqual({ kind: "tooth", tooth: 24 });
    expect(parseVoice("dent vingt et un", "fr")).toEqual({ kind: "tooth", tooth: 21 });
    expect(parseVoice("dent quatorze", "fr")).toEqual({ kind: "tooth", tooth: 14 });
    expect(parseVoice("mobility two", "en")).toEqual({ kind: "mobility", value: 2 });
    expect(parseVoice("saignement", "fr")).toEqual({ kind: "flag", flag: "bop" });
    expect(parseVoice("stop listening", "en")).toEqual({ kind: "stop" });
    expect(parseVoice("dent suivante", "fr")).toEqual({ kind: "next_tooth" });
  });
  it("rejects empty or out-of-grammar text rather than guessing", () => {
    expect(parseVoice("", "en")).toBeNull();
    expect(parseVoice("one two three four", "en")).toBeNull();
    expect(parseVoice("banana", "en")).toBeNull();
    expect(parseVoice("sixteen", "en")).toBeNull();
  });
  it("builds a JSGF grammar with every command word", () => {
    const g = jsgfGrammar("fr");
    expect(g).toMatch(/^#JSGF V1\.0;/);
    for (const w of ["saignement", "suppuration", "tartre", "annuler", "dent suivante", "quarante huit"]) expect(g).toContain(w);
  });
});
