import { mergeContent } from "../../src/content/merge";

describe("merging a campaign file over the site file", () => {
  const site = {
    home: { title: "Site title", tagline: "Site tagline", countdown: { days: "days", hours: "hours" } },
    toasts: { success: { title: "Confirmed", message: "Welcome" } },
    decorations: { odds: ["+150", "-110", "2.50"], pauseLabel: "Pause" },
  };

  it("takes what the campaign sets, at any depth, and keeps everything it leaves out", () => {
    const merged = mergeContent(site, {
      home: { title: "NBA title", countdown: { days: "jours" } },
      toasts: { success: { title: "NBA confirmed" } },
    });
    expect(merged).toEqual({
      home: { title: "NBA title", tagline: "Site tagline", countdown: { days: "jours", hours: "hours" } },
      toasts: { success: { title: "NBA confirmed", message: "Welcome" } },
      decorations: { odds: ["+150", "-110", "2.50"], pauseLabel: "Pause" },
    });
  });

  it("replaces a whole list with the campaign's list, never mixing the two", () => {
    expect(mergeContent(site, { decorations: { odds: ["-105"] } }).decorations).toEqual({ odds: ["-105"], pauseLabel: "Pause" });
  });

  it("lets a value of another kind (null, text for a section) replace the site's, for validation to refuse", () => {
    expect(mergeContent(site, { home: { tagline: null } }).home.tagline).toBeNull();
    expect(mergeContent(site, { home: "oops" }).home).toBe("oops");
  });

  it("changes neither input", () => {
    const override = { home: { title: "NBA title" } };
    const before = JSON.stringify(site);
    mergeContent(site, override);
    expect(JSON.stringify(site)).toBe(before);
    expect(override).toEqual({ home: { title: "NBA title" } });
  });
});
