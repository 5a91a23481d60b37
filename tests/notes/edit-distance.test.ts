import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EDIT_DISTANCE_LIMITS, editDistance } from "#app/services/notes/edit-distance.ts";

/** The textbook table, the reference the bounded version must equal below its cap. */
function reference(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i += 1) {
    const curr = [i];
    for (let j = 1; j <= y.length; j += 1) {
      curr[j] = Math.min(
        (prev[j] as number) + 1,
        (curr[j - 1] as number) + 1,
        (prev[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    }
    prev = curr;
  }
  return prev[y.length] as number;
}

describe("editDistance (bounded Myers bit-vector)", () => {
  it("equals the textbook table on small alphabets, across block boundaries", () => {
    const text = (max: number) => fc.string({ unit: fc.constantFrom("a", "b", "c", "é", "😀", " "), maxLength: max });
    fc.assert(
      fc.property(text(140), text(140), (a, b) => {
        expect(editDistance(a, b)).toBe(reference(a, b));
      }),
      { numRuns: 400 },
    );
  });

  it("counts code points and handles empty sides", () => {
    expect(editDistance("", "")).toBe(0);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("abc", "")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("café", "cafe")).toBe(1);
    expect(editDistance("a😀b", "ab")).toBe(1);
  });

  it("stays exact for a local edit in a long section (common prefix and suffix cut)", () => {
    const base = "The patient reports intermittent chest pain. ".repeat(440); // about 20,000 characters
    // Ten characters inserted at 9,000 and ten deleted at 10,500: from 10,510 on both texts agree,
    // and the differing middle (1,510 code points) is under the exact cap.
    const edited = `${base.slice(0, 9000)}no longer ${base.slice(9000, 10500)}${base.slice(10510)}`;
    expect(edited.slice(10510)).toBe(base.slice(10510));
    const exact = reference(base.slice(8000, 11000), edited.slice(8000, 11000));
    expect(editDistance(base, edited)).toBe(exact);
    // Past the cap the figure is an upper bound: never below the true distance.
    const far = `${base.slice(0, 8000)}no longer ${base.slice(8000, 10500)}${base.slice(10510)}`;
    expect(editDistance(base, far)).toBeGreaterThanOrEqual(reference(base.slice(7000, 11000), far.slice(7000, 11000)));
  });

  it("bounds a wholly rewritten 40 × 20,000-character note well under a second", () => {
    const random = (seed: number) => {
      let s = seed;
      return Array.from({ length: 20_000 }, () => {
        s = (s * 1103515245 + 12345) & 0x7fffffff;
        return String.fromCharCode(97 + (s % 26));
      }).join("");
    };
    const a = random(1);
    const b = random(2);
    // CPU time of this thread, so a loaded shared machine does not turn a bound into a flake.
    const cpu = process.threadCpuUsage();
    let last = 0;
    for (let i = 0; i < 40; i += 1) last = editDistance(a, b);
    const used = process.threadCpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(1000);
    // Beyond the exact cap the figure is an upper bound that still reads as "mostly rewritten".
    expect(a.length * b.length).toBeGreaterThan(EDIT_DISTANCE_LIMITS.exactCells);
    expect(last).toBeLessThanOrEqual(20_000);
    expect(last).toBeGreaterThan(15_000);
  });
});
