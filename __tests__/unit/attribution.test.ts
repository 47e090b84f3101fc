import { attributionProperties, attributionValue, referrerOrigin } from "../../src/signup/attribution";
import { ATTRIBUTION_VALUE_MAX_CHARS, UTM_OTHER } from "../../shared/validation";

const landing = { search: "", pathname: "/", referrer: "" };

describe("attribution properties of a signup", () => {
  it("sends the five UTM parameters under their own names, with the landing path and the referring origin", () => {
    const properties = attributionProperties({
      search: "?utm_source=nba&utm_medium=paid-social&utm_campaign=launch.week_2&utm_term=picks&utm_content=video-a&other=x",
      pathname: "/nba-ads/",
      referrer: "https://news.example/article/42?user=jordan@example.com#comments",
    });
    expect(properties).toEqual({
      utm_source: "nba",
      utm_medium: "paid-social",
      utm_campaign: "launch.week_2",
      utm_term: "picks",
      utm_content: "video-a",
      landing_page: "/nba-ads/",
      referrer: "https://news.example",
    });
  });

  it("sends a UTM value outside [A-Za-z0-9._-]{1,64} as other, as the service keeps it", () => {
    const properties = attributionProperties({
      ...landing,
      search: `?utm_source=launch%20week&utm_medium=${"a".repeat(65)}&utm_campaign=caf%C3%A9&utm_term=${"b".repeat(64)}`,
    });
    expect(properties).toEqual({
      utm_source: UTM_OTHER,
      utm_medium: UTM_OTHER,
      utm_campaign: UTM_OTHER,
      utm_term: "b".repeat(64),
      landing_page: "/",
    });
  });

  it("leaves out what is missing or blank, never sending an empty value", () => {
    expect(attributionProperties({ ...landing, search: "?utm_source=&utm_medium=%20%20&utm_campaign" })).toEqual({ landing_page: "/" });
    expect(attributionProperties({ search: "", pathname: "", referrer: "" })).toEqual({});
  });

  it("trims values and cuts them to 255 characters", () => {
    const long = "a".repeat(5_000);
    const properties = attributionProperties({ ...landing, pathname: `/${long}`, search: "?utm_medium=%20%20paid%20" });
    expect(properties.landing_page).toBe(`/${"a".repeat(ATTRIBUTION_VALUE_MAX_CHARS - 1)}`);
    expect(properties.utm_medium).toBe("paid");
  });

  it("keeps markup as the literal text it is", () => {
    const markup = '<img src=x onerror="alert(1)">';
    expect(attributionProperties({ ...landing, pathname: markup }).landing_page).toBe(markup);
    expect(attributionProperties({ ...landing, search: `?utm_content=${encodeURIComponent(markup)}` }).utm_content).toBe(UTM_OTHER);
  });

  it("never splits a character made of two UTF-16 units when cutting", () => {
    const value = attributionValue("🏀".repeat(300));
    expect(Array.from(value ?? "")).toHaveLength(ATTRIBUTION_VALUE_MAX_CHARS);
    expect(value).toBe("🏀".repeat(ATTRIBUTION_VALUE_MAX_CHARS));
  });

  it("takes only the origin of an http(s) referrer, and nothing from other schemes or garbage", () => {
    expect(referrerOrigin("http://127.0.0.1:8000/some/path?q=1")).toBe("http://127.0.0.1:8000");
    expect(referrerOrigin("android-app://com.example/")).toBeUndefined();
    expect(referrerOrigin("not a url")).toBeUndefined();
    expect(referrerOrigin("")).toBeUndefined();
  });
});
