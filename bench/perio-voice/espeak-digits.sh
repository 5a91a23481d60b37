#!/bin/sh
# Synthetic spoken numbers for the voice bench in French (or English): espeak-ng voices × speeds,
# written as {value}_{voice}_{take}.wav so `npm run bench:perio-voice -- --digits-dir <out> --lang fr` reads them.
#   sh bench/perio-voice/espeak-digits.sh fr /tmp/perio-fr-digits
set -eu
lang="${1:-fr}"; out="${2:-/tmp/perio-$lang-digits}"
mkdir -p "$out"
if [ "$lang" = fr ]; then
  words="zéro un deux trois quatre cinq six sept huit neuf"; voices="fr fr+m3 fr+f2 fr+f4 fr-be fr-ch"
else
  words="zero one two three four five six seven eight nine"; voices="en-us en-us+m3 en-us+f2 en-gb en-gb+f4 en-us+m7"
fi
take=0
for speed in 130 150 170 190 210; do
  for pitch in 35 50 65; do
    digit=0
    for w in $words; do
      for v in $voices; do
        espeak-ng -v "$v" -s "$speed" -p "$pitch" -w "$out/${digit}_$(echo "$v" | tr '+' '-')_${take}.wav" "$w"
      done
      digit=$((digit + 1))
    done
    take=$((take + 1))
  done
done
echo "$(ls "$out" | wc -l) files in $out"
