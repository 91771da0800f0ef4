"""The account holder's journey in Debian's Chromium, driven by Playwright (tests/account_web.rs).

Usage: account_journey.py CONFIG.json, where the JSON holds
  mode        "journey" (one server) or "two-instances" (two servers on one database)
  base        the server's URL (two-instances: the first server's)
  other       two-instances only: the second server's URL
  link        the sign-in link printed by `docx2pdf accounts sign-in-link`
  account     the account's name
  docx        the path of a DOCX to convert
  reset_at    the `resetAt` of the current month, as the API writes it
  throttled   journey only: a name to try wrong passwords on
  unused_link journey only: a sign-in link of another account, only looked at
  screenshots optional: a folder to save screenshots of two pages in

Every check raises on failure; the last line printed is a JSON summary.
"""

import json
import re
import sys

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PASSWORD = "a calm and quite long passphrase"
COOKIE = "__Host-docx2pdf-session"

axe = Axe()
checked_pages = []
shown_keys = []


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def no_axe_violations(page, what):
    """Zero axe-core violations on the page as it stands."""
    result = axe.run(page)
    if result.violations_count:
        raise AssertionError(f"axe on {what} ({page.url}):\n{result.generate_report()}")
    checked_pages.append(what)


def navigate(page, action):
    """Runs `action` (a click or a goto) and returns the HTTP status of the page it led to."""
    with page.expect_navigation() as nav:
        action()
    return nav.value.status


def convert(request, base, key, path):
    with open(path, "rb") as f:
        data = f.read()
    return request.post(f"{base}/api/convert", headers={"Authorization": f"Bearer {key}"},
                        multipart={"file": {"name": "document.docx", "buffer": data,
                                            "mimeType": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"}})


def key_card(page, name):
    return page.locator("li.key-card").filter(has=page.get_by_role("heading", name=name, exact=True))


def create_key(page, name):
    page.get_by_label("Key name").fill(name)
    status = navigate(page, lambda: page.get_by_role("button", name="Create key").click())
    check(status == 200, f"creating a key answered {status}")
    expect(page.get_by_role("status")).to_contain_text("shown only this once")
    key = page.get_by_label("Your new API key").input_value()
    check(re.fullmatch(r"d2p_[0-9A-Za-z]{40}", key), f"a key: {key!r}")
    shown_keys.append(key)
    return key


def set_up(page, link):
    status = navigate(page, lambda: page.goto(link))
    check(status == 200, f"the link answered {status}")
    page.get_by_label("New password").fill(PASSWORD)
    page.get_by_label("Repeat the password").fill(PASSWORD)
    status = navigate(page, lambda: page.get_by_role("button", name="Save password and sign in").click())
    check(status == 200 and page.url.endswith("/account/credentials"), f"set-up led to {page.url} ({status})")
    expect(page.get_by_role("heading", level=1)).to_have_text("Credentials")


def sign_in(page, base, name, password):
    page.goto(f"{base}/account/sign-in")
    page.get_by_label("Account name").fill(name)
    page.get_by_label("Password").fill(password)
    return navigate(page, lambda: page.get_by_role("button", name="Sign in").click())


def narrow_without_javascript(browser, state, urls):
    """Every page at 320 px with JavaScript off, signed in: no horizontal scrolling."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 320, "height": 640}, storage_state=state)
    page = context.new_page()
    for url in urls:
        page.goto(url)
        check(page.url == url, f"{url} led to {page.url}")
        width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        check(width[0] <= width[1], f"{url} scrolls sideways at 320 px: {width}")
    context.close()


def keyboard_sign_in(page, base, name):
    """The keyboard path: skip link first and visible, then the fields, Enter to send."""
    page.goto(f"{base}/account/sign-in")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent")
    check(focused == "Skip to main content", f"the first Tab reaches {focused!r}")
    check(page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none", "the focus is visible")
    box = page.locator("a.skip").bounding_box()
    check(box is not None and box["y"] >= 0, f"the skip link shows when focused: {box}")
    page.keyboard.press("Enter")
    check(page.evaluate("document.activeElement.id") == "main", "the skip link moves to the main content")
    page.keyboard.press("Tab")
    check(page.evaluate("document.activeElement.id") == "name", "then the account name")
    page.keyboard.type(name)
    page.keyboard.press("Tab")
    check(page.evaluate("document.activeElement.id") == "password", "then the password")
    check(page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none", "the field's focus is visible")
    page.keyboard.type(PASSWORD)
    status = navigate(page, lambda: page.keyboard.press("Enter"))
    check(status == 200 and page.url.endswith("/account/credentials"), f"keyboard sign-in led to {page.url}")
    # On to the Key name field by Tab alone, and Enter creates the key.
    for _ in range(12):
        page.keyboard.press("Tab")
        check(page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none",
              f"the focus is visible on {page.evaluate('document.activeElement.outerHTML')[:80]}")
        if page.evaluate("document.activeElement.id") == "key-name":
            break
    check(page.evaluate("document.activeElement.id") == "key-name", "Tab reaches the Key name field")
    page.keyboard.type("typed key")
    status = navigate(page, lambda: page.keyboard.press("Enter"))
    check(status == 200, f"Enter in the Key name field answered {status}")
    expect(page.get_by_role("status")).to_contain_text("shown only this once")
    shown_keys.append(page.get_by_label("Your new API key").input_value())


def journey(p, cfg):
    base, link, account = cfg["base"], cfg["link"], cfg["account"]
    browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    context = browser.new_context(viewport={"width": 1024, "height": 800})
    page = context.new_page()
    api = p.request.new_context()

    # The link opens the form, twice: looking uses nothing up.
    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_have_text("Choose your password")
    no_axe_violations(page, "set-up form")
    page.get_by_label("New password").fill("one long passphrase")
    page.get_by_label("Repeat the password").fill("another long passphrase")
    status = navigate(page, lambda: page.get_by_role("button", name="Save password and sign in").click())
    check(status == 400, f"two different passwords answered {status}")
    expect(page.locator("#confirm-error")).to_contain_text("differ")
    no_axe_violations(page, "set-up form with an error")
    set_up(page, link)
    no_axe_violations(page, "credentials")

    # The cookie as the browser stored it.
    cookies = [c for c in context.cookies() if c["name"] == COOKIE]
    check(len(cookies) == 1, f"one session cookie: {context.cookies()}")
    c = cookies[0]
    check(c["secure"] and c["httpOnly"] and c["sameSite"] == "Strict" and c["path"] == "/", f"cookie flags: {c}")
    check(c["domain"] == "127.0.0.1" and len(c["value"]) == 64, f"host-only cookie: {c}")

    # A used link says so and offers no form.
    page.goto(link)
    expect(page.get_by_role("status")).to_contain_text("used already")
    check(page.get_by_label("New password").count() == 0, "no form on a used link")
    no_axe_violations(page, "used link")

    # Create a key; it shows once.
    page.goto(f"{base}/account/credentials")
    key = create_key(page, "invoices server")
    no_axe_violations(page, "credentials with a new key")
    # Reloading the answer (the browser sends the form again) and going Back make no
    # second key and never show this one again.
    reloaded = page.reload()
    resent = reloaded.request.method == "POST"
    if resent:
        check(reloaded.status == 409, f"the form sent again answered {reloaded.status}")
        expect(page.get_by_role("status")).to_contain_text("sent already")
    check(key not in page.content(), "the key shows only in the answer to its POST")
    page.goto(f"{base}/account/credentials")
    page.go_back()
    page.go_back()
    check(key not in page.content(), "nor after Back")
    page.goto(f"{base}/account/credentials")
    expect(key_card(page, "invoices server")).to_have_count(1)
    card = key_card(page, "invoices server")
    expect(card).to_contain_text("Never")
    expect(card).to_contain_text(key[:12])

    # Use it: the usage and "last used" change.
    answer = convert(api, base, key, cfg["docx"])
    check(answer.status == 200 and answer.headers["x-credits-used"] == "1", f"convert: {answer.status} {answer.text()[:200]}")
    request_id = answer.headers["x-request-id"]
    page.reload()
    card = key_card(page, "invoices server")
    check("Never" not in card.inner_text(), f"last used is set: {card.inner_text()}")
    expect(card.locator("div", has_text="Credits used this month").locator("dd")).to_have_text("1")
    page.get_by_role("link", name="Usage").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Usage")
    expect(page.locator("main")).to_contain_text("1 of 100 credits used")
    expect(page.locator("main")).to_contain_text("99 credits left")
    expect(page.locator("main")).to_contain_text(cfg["reset_at"])
    meter = page.get_by_role("meter", name="Credits used this month")
    check(meter.get_attribute("value") == "1" and meter.get_attribute("max") == "100", "the meter")
    expect(page.locator("table.ledger tbody tr")).to_have_count(1)
    expect(page.locator("table.ledger")).to_contain_text(request_id)
    no_axe_violations(page, "usage")
    if cfg.get("screenshots"):
        page.set_viewport_size({"width": 900, "height": 820})
        page.screenshot(path=f"{cfg['screenshots']}/account-usage.png")
        page.set_viewport_size({"width": 1024, "height": 800})
    page.get_by_label("Month", exact=True).fill("2001-01")
    status = navigate(page, lambda: page.get_by_role("button", name="Show month").click())
    check(status == 200 and "month=2001-01" in page.url, f"an earlier month by a GET form: {page.url}")
    expect(page.locator("main")).to_contain_text("No conversions in 2001-01")

    # A spare key, for the narrow pages and the revocation page below.
    page.goto(f"{base}/account/credentials")
    create_key(page, "spare")
    page.goto(f"{base}/account/credentials")
    if cfg.get("screenshots"):
        page.set_viewport_size({"width": 900, "height": 1000})
        page.screenshot(path=f"{cfg['screenshots']}/account-credentials.png")
        page.set_viewport_size({"width": 1024, "height": 800})

    # Revoke through the confirmation page; the API refuses the key at once.
    page.get_by_role("link", name="Revoke invoices server").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Revoke invoices server")
    no_axe_violations(page, "revoke confirmation")
    navigate(page, lambda: page.get_by_role("button", name="Revoke key").click())
    expect(page.get_by_role("status")).to_contain_text("revoked")
    expect(key_card(page, "invoices server")).to_contain_text("Revoked")
    answer = convert(api, base, key, cfg["docx"])
    check(answer.status == 401, f"a revoked key answered {answer.status}")
    no_axe_violations(page, "credentials after a revocation")

    # A form on another site that posts to the service is refused (and sends no cookie).
    def attacker(route):
        route.fulfill(content_type="text/html", body=(
            "<!doctype html><html lang=en><title>x</title><form method=post "
            f"action='{base}/account/credentials'><input name=name value=evil>"
            "<button>Go</button></form></html>"))
    page.route("http://attacker.test/**", attacker)
    page.goto("http://attacker.test/")
    status = navigate(page, lambda: page.get_by_role("button", name="Go").click())
    check(status == 403, f"a cross-origin POST answered {status}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Form refused")
    no_axe_violations(page, "refused form")

    # Every page at 320 px with JavaScript off.
    page.goto(f"{base}/account/credentials")
    spare = key_card(page, "spare").get_by_role("link", name="Revoke spare").get_attribute("href")
    narrow_without_javascript(browser, context.storage_state(), [
        f"{base}/account/credentials", f"{base}{spare}", f"{base}/account/usage",
        f"{base}/account/sign-in", link, cfg["unused_link"]])

    # Without JavaScript the forms still work: create a key at 320 px.
    plain = browser.new_context(java_script_enabled=False, viewport={"width": 320, "height": 640},
                                storage_state=context.storage_state())
    plain_page = plain.new_page()
    plain_page.goto(f"{base}/account/credentials")
    create_key(plain_page, "made without scripts")
    width = plain_page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    check(width[0] <= width[1], f"the new key's answer scrolls sideways at 320 px: {width}")
    plain.close()

    # Sign out, and the pages are closed.
    page.goto(f"{base}/account/credentials")
    navigate(page, lambda: page.get_by_role("button", name="Sign out").click())
    expect(page.get_by_role("status")).to_contain_text("signed out")
    check(not [c for c in context.cookies() if c["name"] == COOKIE], "the cookie is gone")
    no_axe_violations(page, "sign-in")
    page.goto(f"{base}/account/credentials")
    check(page.url.endswith("/account/sign-in"), f"signed out, the page sends to sign-in: {page.url}")

    # A wrong password, then the right one.
    status = sign_in(page, base, account, "not the password at all")
    check(status == 401, f"a wrong password answered {status}")
    expect(page.get_by_role("status")).to_contain_text("The account name or password is not right.")
    no_axe_violations(page, "sign-in with an error")
    status = sign_in(page, base, account, PASSWORD)
    check(status == 200 and page.url.endswith("/account/credentials"), f"sign-in led to {page.url}")
    cookies = [c for c in context.cookies() if c["name"] == COOKIE]
    check(len(cookies) == 1 and cookies[0]["value"] != c["value"], "a new session on every sign-in")

    # The throttle: five wrong passwords, then 429 with Retry-After.
    for _ in range(5):
        check(sign_in(page, base, cfg["throttled"], "wrong password") == 401, "a wrong password")
    with page.expect_navigation() as nav:
        page.goto(f"{base}/account/sign-in")
        page.get_by_label("Account name").fill(cfg["throttled"])
        page.get_by_label("Password").fill("wrong password")
        with page.expect_response(lambda r: r.url.endswith("/account/sign-in") and r.request.method == "POST") as posted:
            page.get_by_role("button", name="Sign in").click()
    check(posted.value.status == 429 and int(posted.value.headers["retry-after"]) > 0, f"throttled: {posted.value.status}")
    expect(page.get_by_role("status")).to_contain_text("Too many wrong passwords")
    no_axe_violations(page, "sign-in throttled")

    # The keyboard path, in a fresh browser.
    keys_only = browser.new_context(viewport={"width": 1024, "height": 800})
    keyboard_sign_in(keys_only.new_page(), base, account)
    keys_only.close()
    browser.close()
    return {"pages_checked_by_axe": checked_pages, "keys": shown_keys, "reload_sent_the_form_again": resent}


def two_instances(p, cfg):
    first, second, link = cfg["base"], cfg["other"], cfg["link"]
    browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    context = browser.new_context()
    page = context.new_page()
    api = p.request.new_context()
    set_up(page, link)
    # The session made on the first instance opens the second one's pages (the cookie is
    # the host's, whatever the port).
    page.goto(f"{second}/account/credentials")
    expect(page.get_by_role("heading", level=1)).to_have_text("Credentials")
    key = create_key(page, "shared")
    check(convert(api, first, key, cfg["docx"]).status == 200, "the key works on the first instance")
    page.goto(f"{first}/account/credentials")
    page.get_by_role("link", name="Revoke shared").click()
    navigate(page, lambda: page.get_by_role("button", name="Revoke key").click())
    expect(page.get_by_role("status")).to_contain_text("revoked")
    answer = convert(api, second, key, cfg["docx"])
    check(answer.status == 401, f"revoked on the first, the second answered {answer.status}")
    page.goto(f"{second}/account/usage")
    expect(page.locator("main")).to_contain_text("1 of 100 credits used")
    # Signing out on the second ends the session on the first.
    navigate(page, lambda: page.get_by_role("button", name="Sign out").click())
    page.goto(f"{first}/account/credentials")
    check(page.url.endswith("/account/sign-in"), f"signed out everywhere: {page.url}")
    browser.close()
    return {"instances": 2}


def main():
    with open(sys.argv[1]) as f:
        cfg = json.load(f)
    with sync_playwright() as p:
        summary = journey(p, cfg) if cfg["mode"] == "journey" else two_instances(p, cfg)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
