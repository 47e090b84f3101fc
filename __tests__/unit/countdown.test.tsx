/**
 * The launch countdown (product rule 20): days, hours, min, sec toward a fixed
 * moment, ticking every second, zeros once the moment has passed, the same for
 * visitors in every time zone.
 */
import { act, render, screen } from "@testing-library/react";
import { ThemeProvider } from "styled-components";
import { Countdown } from "../../src/components/Countdown";
import { timeLeft } from "../../src/countdown/timeLeft";
import { theme } from "../../src/styles/theme";

/** The launch moment of product rule 20's example: 13 Oct 2025 15:00 at UTC-8. */
const LAUNCH_MS = Date.parse("2025-10-13T15:00:00-08:00");
const COPY = { days: "days", hours: "hours", minutes: "min", seconds: "sec", afterLaunch: "" };
/** The content's line under the countdown once launched. */
const AFTER_LAUNCH = "We're live: check your inbox for your invitation.";
const ORIGINAL_TZ = process.env.TZ;

afterEach(() => {
  jest.useRealTimers();
  process.env.TZ = ORIGINAL_TZ;
});

/** The four figures as a visitor reads them, e.g. "01 02 03 04". */
function figures(): string {
  const timer = screen.getByRole("timer");
  return [...timer.querySelectorAll("span:first-child")].map((el) => el.textContent).join(" ");
}

function renderCountdown(builtAtMs: number, afterLaunch = "") {
  return render(
    <ThemeProvider theme={theme}>
      <Countdown
        content={{
          home: { countdown: { ...COPY, afterLaunch } },
          derived: { countdownLabel: "Time left until launch", launchAtMs: LAUNCH_MS, builtAtMs },
        }}
      />
    </ThemeProvider>,
  );
}

describe("timeLeft", () => {
  it("splits the time before the launch into days, hours, minutes and seconds", () => {
    const now = LAUNCH_MS - (2 * 86_400_000 + 3 * 3_600_000 + 4 * 60_000 + 5_000 + 999);
    expect(timeLeft(LAUNCH_MS, now)).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5 });
  });

  it("is all zeros at the launch moment and after it", () => {
    expect(timeLeft(LAUNCH_MS, LAUNCH_MS)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
    expect(timeLeft(LAUNCH_MS, LAUNCH_MS + 1)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
    expect(timeLeft(LAUNCH_MS, LAUNCH_MS + 400 * 86_400_000)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
  });

  it("is one second one millisecond before the launch", () => {
    expect(timeLeft(LAUNCH_MS, LAUNCH_MS - 1_000)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 1 });
  });
});

describe("<Countdown>", () => {
  it.each(["UTC", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Kiritimati"])(
    "shows the same figures to a visitor in %s and ticks every second",
    (zone) => {
      process.env.TZ = zone;
      jest.useFakeTimers({ now: Date.parse("2025-10-12T22:58:55Z") });
      // 2025-10-13T23:00:00Z is the launch; 1 day 0 h 1 min 5 s before it.
      renderCountdown(Date.parse("2025-10-01T00:00:00Z"));
      expect(figures()).toBe("01 00 01 05");
      act(() => jest.advanceTimersByTime(1_000));
      expect(figures()).toBe("01 00 01 04");
      act(() => jest.advanceTimersByTime(5_000));
      expect(figures()).toBe("01 00 00 59");
    },
  );

  it("reaches zeros at the launch moment and stays there", () => {
    jest.useFakeTimers({ now: LAUNCH_MS - 2_000 });
    renderCountdown(LAUNCH_MS - 86_400_000);
    expect(figures()).toBe("00 00 00 02");
    act(() => jest.advanceTimersByTime(2_000));
    expect(figures()).toBe("00 00 00 00");
    act(() => jest.advanceTimersByTime(10_000));
    expect(figures()).toBe("00 00 00 00");
  });

  it("shows zeros when the launch had passed at build time (prerendered HTML and first render agree)", () => {
    jest.useFakeTimers({ now: LAUNCH_MS + 5_000 });
    renderCountdown(LAUNCH_MS + 1_000);
    expect(figures()).toBe("00 00 00 00");
  });

  it("shows the content's after-launch line beneath the zeros when built after the launch, and none before or when empty", () => {
    jest.useFakeTimers({ now: LAUNCH_MS + 5_000 });
    const { unmount } = renderCountdown(LAUNCH_MS + 1_000, AFTER_LAUNCH);
    expect(figures()).toBe("00 00 00 00");
    expect(screen.getByText(AFTER_LAUNCH)).toBeVisible();
    unmount();
    renderCountdown(LAUNCH_MS - 1_000, AFTER_LAUNCH);
    expect(screen.queryByText(AFTER_LAUNCH)).toBeNull();
  });

  it("names the four units and carries an accessible label instead of announcing every second", () => {
    jest.useFakeTimers({ now: LAUNCH_MS - 10_000 });
    renderCountdown(LAUNCH_MS - 86_400_000);
    const timer = screen.getByRole("timer", { name: "Time left until launch" });
    expect(timer).not.toHaveAttribute("aria-live");
    expect(timer).toHaveTextContent(/days.*hours.*min.*sec/);
  });
});
