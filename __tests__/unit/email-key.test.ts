import { emailKey } from "../../worker/src/signups/email-key";

describe("emailKey: the address a signup is compared by", () => {
  it("lower-cases the whole address", () => {
    expect(emailKey("Ann.Lee@Example.COM")).toBe("ann.lee@example.com");
  });

  it("removes a +tag from the local part on any domain", () => {
    expect(emailKey("ann+waitlist@example.com")).toBe("ann@example.com");
    expect(emailKey("ann+a+b@example.com")).toBe("ann@example.com");
  });

  it("removes dots from Gmail addresses, which Gmail ignores", () => {
    expect(emailKey("john.doe@gmail.com")).toBe("johndoe@gmail.com");
    expect(emailKey("J.o.H.n.Doe+news@Gmail.com")).toBe("johndoe@gmail.com");
  });

  it("writes googlemail.com as gmail.com, the same mailbox", () => {
    expect(emailKey("John.Doe@googlemail.com")).toBe("johndoe@gmail.com");
  });

  it("keeps dots on every other domain, where they can tell two people apart", () => {
    expect(emailKey("j.doe@firm.com")).not.toBe(emailKey("jdoe@firm.com"));
    expect(emailKey("john.doe@gmail.co.uk")).toBe("john.doe@gmail.co.uk");
    expect(emailKey("john.doe@mail.gmail.com")).toBe("john.doe@mail.gmail.com");
  });

  it("keeps a local part that a +tag would leave empty", () => {
    expect(emailKey("+news@example.com")).toBe("+news@example.com");
  });

  it("ignores surrounding white space", () => {
    expect(emailKey("  ann@example.com ")).toBe("ann@example.com");
  });

  it("is the canonical inbox, so the confirmation webhook finds the row a second spelling signed up with", () => {
    expect(emailKey("a.n.n@gmail.com.")).toBe(emailKey("ann@gmail.com"));
    expect(emailKey("ann@bücher.de")).toBe(emailKey("ANN@xn--bcher-kva.de"));
    expect(emailKey("x@ann.fastmail.com")).toBe("ann@fastmail.com");
    expect(emailKey("ann@me.com")).toBe("ann@icloud.com");
  });

  it("keys an address the shared rules refuse as its lower case, never as another person's inbox", () => {
    expect(emailKey(" A\u200bnn@Gmail.com")).toBe("a\u200bnn@gmail.com");
    expect(emailKey(" A\u200bnn@Gmail.com")).not.toBe(emailKey("ann@gmail.com"));
  });
});
