/**
 * The referral program's browser modules on their own: the ?ref code kept for the visit,
 * the standing read from the status endpoint's answer, the share links, copying, the status token and
 * the settings the service is given.
 */
import { copyOrSelect } from "../../src/referrals/clipboard";
import { fillCounts, formatCount } from "../../src/referrals/numbers";
import { keepReferralCode, REFERRAL_CODE_KEY, referralCodeForSignup, referralCodeIn } from "../../src/referrals/referralCode";
import { canWebShare, shareLinks, shareMessage, webShareData } from "../../src/referrals/share";
import { standingIn } from "../../src/referrals/standing";
import { statusTokenIn } from "../../src/referrals/statusToken";

const ANSWER = {
  referralCode: "K7QM2XPD",
  referralUrl: "https://www.pickfund.example/?ref=K7QM2XPD",
  position: 1234,
  referrals: 2,
  entries: 3,
  statusUrl: "https://www.pickfund.example/status/#t=Vb3kq9ZxT1mN8pL2rS6wYa",
};

beforeEach(() => sessionStorage.clear());

describe("the referral code of a friend's link", () => {
  it("is kept in sessionStorage for the visit, and no cookie is set", () => {
    keepReferralCode("?ref=K7QM2XPD&utm_source=x");
    expect(sessionStorage.getItem(REFERRAL_CODE_KEY)).toBe("K7QM2XPD");
    expect(document.cookie).toBe("");
  });

  it("is still sent after a later page view without ?ref (the visitor read on, then signed up)", () => {
    keepReferralCode("?ref=K7QM2XPD");
    keepReferralCode("");
    keepReferralCode("?utm_source=newsletter");
    expect(referralCodeForSignup("")).toBe("K7QM2XPD");
  });

  it("is the one in the current address when the visitor followed a second link", () => {
    keepReferralCode("?ref=K7QM2XPD");
    keepReferralCode("?ref=B9TR4WQZ");
    expect(referralCodeForSignup("")).toBe("B9TR4WQZ");
    expect(referralCodeForSignup("?ref=H3JX8CNE")).toBe("H3JX8CNE");
  });

  it("is none when the visit came through no referral link", () => {
    expect(referralCodeForSignup("?utm_source=x")).toBeNull();
  });

  it("is never text that cannot be a code (a pasted sentence, a script), so such a link cannot cost a signup", () => {
    expect(referralCodeIn("?ref=%3Cscript%3E")).toBeNull();
    expect(referralCodeIn(`?ref=${"A".repeat(33)}`)).toBeNull();
    expect(referralCodeIn("?ref=")).toBeNull();
    expect(referralCodeIn("?ref=%20K7QM2XPD%20")).toBe("K7QM2XPD");
    keepReferralCode("?ref=not%20a%20code");
    expect(sessionStorage.getItem(REFERRAL_CODE_KEY)).toBeNull();
  });

  it("still works from the address where the browser refuses storage", () => {
    const refused = {
      getItem: () => {
        throw new DOMException("denied", "SecurityError");
      },
      setItem: () => {
        throw new DOMException("full", "QuotaExceededError");
      },
    };
    expect(() => keepReferralCode("?ref=K7QM2XPD", refused)).not.toThrow();
    expect(referralCodeForSignup("?ref=K7QM2XPD", refused)).toBe("K7QM2XPD");
    expect(referralCodeForSignup("", refused)).toBeNull();
  });
});

describe("the standing in the status endpoint's answer", () => {
  it("is the place in line, the counts and both links", () => {
    expect(standingIn({ ...ANSWER, leaderboardShown: false })).toEqual({
      referralUrl: ANSWER.referralUrl,
      position: 1234,
      referrals: 2,
      entries: 3,
      statusUrl: ANSWER.statusUrl,
    });
  });

  it("is none for a malformed or tampered answer rather than half of it", () => {
    for (const broken of [
      { ...ANSWER, position: 0 },
      { ...ANSWER, referrals: -1 },
      { ...ANSWER, entries: 1.5 },
      { ...ANSWER, referralUrl: "javascript:alert(1)" },
      { ...ANSWER, statusUrl: undefined },
      null,
      "not an answer",
    ])
      expect(standingIn(broken)).toBeNull();
  });
});

describe("share links", () => {
  const LINK = "https://www.pickfund.example/?ref=K7QM2XPD";
  const TEMPLATE = "Join me & move up: {link}";

  it("put the link in place of {link}", () => {
    expect(shareMessage(TEMPLATE, LINK)).toBe("Join me & move up: https://www.pickfund.example/?ref=K7QM2XPD");
  });

  it("are each network's documented share address, with the message URL-encoded", () => {
    const links = shareLinks(TEMPLATE, LINK);
    expect(links).toEqual({
      x: "https://twitter.com/intent/tweet?text=Join+me+%26+move+up%3A+https%3A%2F%2Fwww.pickfund.example%2F%3Fref%3DK7QM2XPD",
      whatsapp: "https://wa.me/?text=Join+me+%26+move+up%3A+https%3A%2F%2Fwww.pickfund.example%2F%3Fref%3DK7QM2XPD",
      telegram: "https://t.me/share/url?url=https%3A%2F%2Fwww.pickfund.example%2F%3Fref%3DK7QM2XPD&text=Join+me+%26+move+up%3A",
      facebook: "https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fwww.pickfund.example%2F%3Fref%3DK7QM2XPD",
      reddit: "https://www.reddit.com/submit?url=https%3A%2F%2Fwww.pickfund.example%2F%3Fref%3DK7QM2XPD&title=Join+me+%26+move+up%3A",
    });
    // Decoded, each carries exactly the message and the link, with nothing lost to an & or a #.
    expect(new URL(links.x).searchParams.get("text")).toBe(shareMessage(TEMPLATE, LINK));
    expect(new URL(links.telegram).searchParams.get("url")).toBe(LINK);
  });

  it("hand the share menu the link once, as its url, and the message without it", () => {
    expect(webShareData(TEMPLATE, LINK)).toEqual({ text: "Join me & move up:", url: LINK });
  });

  it("offer the share menu only where the browser has one that takes the data", () => {
    const data = webShareData(TEMPLATE, LINK);
    expect(canWebShare({}, data)).toBe(false);
    expect(canWebShare({ share: jest.fn() }, data)).toBe(true);
    expect(canWebShare({ share: jest.fn(), canShare: () => false }, data)).toBe(false);
  });
});

describe("copying the link", () => {
  it("writes it to the clipboard", async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    await expect(copyOrSelect("https://x.example/?ref=A", null, { clipboard: { writeText } })).resolves.toBe("copied");
    expect(writeText).toHaveBeenCalledWith("https://x.example/?ref=A");
  });

  it("selects it in its box when the browser has no clipboard or refuses it", async () => {
    document.body.innerHTML = '<input value="https://x.example/?ref=A" readonly>';
    const field = document.querySelector("input") as HTMLInputElement;
    await expect(copyOrSelect(field.value, field, {})).resolves.toBe("selected");
    expect(document.activeElement).toBe(field);
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, field.value.length]);
    const refused = { clipboard: { writeText: jest.fn().mockRejectedValue(new DOMException("denied", "NotAllowedError")) } };
    await expect(copyOrSelect(field.value, field, refused)).resolves.toBe("selected");
  });
});

describe("numbers in the copy", () => {
  it("are written the way the site's language writes them", () => {
    expect(formatCount(1234, "en")).toBe("1,234");
    expect(formatCount(1234567, "de")).toBe("1.234.567");
    expect(fillCounts("moves you {places} places up and adds {entries}; {other} stays", { places: 1000, entries: 1 }, "en")).toBe(
      "moves you 1,000 places up and adds 1; {other} stays",
    );
  });

  it("keep each language's way when pages format in several, one after another", () => {
    expect([formatCount(1234, "de"), formatCount(1234, "en"), formatCount(1234, "de"), formatCount(1234, "fr")]).toEqual([
      "1.234",
      "1,234",
      "1.234",
      "1\u202f234",
    ]);
  });
});

describe("the status token", () => {
  it("is read from the fragment, + and / and all", () => {
    expect(statusTokenIn("#t=Vb3kq9ZxT1mN8pL2rS6wYa")).toBe("Vb3kq9ZxT1mN8pL2rS6wYa");
    expect(statusTokenIn("#x=1&t=ab+c/d==")).toBe("ab+c/d==");
  });

  it("is none without one, or when the fragment holds something a token cannot be", () => {
    expect(statusTokenIn("")).toBeNull();
    expect(statusTokenIn("#t=")).toBeNull();
    expect(statusTokenIn("#t=a%20b")).toBeNull();
    expect(statusTokenIn("#t=%E0%A4%A")).toBeNull();
  });
});
