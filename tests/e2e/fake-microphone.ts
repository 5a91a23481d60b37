// Chromium whose microphone plays a WAV file (Chromium's fake capture device), for the specs that
// record or listen: the recorder, its resilience, and perio voice charting.
export function fakeMicrophoneLaunchOptions(wav: string, options: { loop?: boolean } = {}) {
  return {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      `--use-file-for-fake-audio-capture=${wav}${options.loop === false ? "%noloop" : ""}`,
    ],
  };
}
