#!/usr/bin/env python3
"""`survey serve`'s web pages in a real browser: headless Chromium (Debian's `chromium` and
`chromium-driver`) driven by Selenium (PyPI), clicking through the respondent pages as a person would.

    python3 Tests/browser-serve-test.py --binary .build/debug/survey
    python3 Tests/browser-serve-test.py --binary .build/debug/survey --screenshots /tmp/shots
    python3 Tests/browser-serve-test.py --binary .build/debug/survey --readme-screenshot docs/images/serve-page.png

Respondents, each a browser with its own profile (so its own cookies, so its own respondent):

1. Desktop (1280x900), Examples/onboarding.json, served by the README's command (`survey serve
   Examples/onboarding.json`, on a free port and a throwaway store) at the URL it prints: Next without
   an answer shows the required error (tied to its field, focused), then fixed; a branch (Instagram)
   brings its follow-up; "Work habits" makes the hidden team-size question appear on the same page;
   Back shows the earlier page with its answer kept; a reload mid-survey (and the printed URL opened
   again) resumes where the respondent is; a refused e-mail address shows its message with the text
   kept, then fixed; completion; the URL again says the respondent is not asked again.
2. Phone (390x844, touch, mobile user agent), the same survey along its shortest path (the `skip`
   branch completes it).
3. Phone with large text (the browser's default font size 32 px), Examples/kitchen-sink.json: text
   with its validator, date, number out of range, single choice with Other's text, multiple choice
   over its maximum, yes/no, rating/scale/NPS as numbers, a matrix, a form missing its required
   field; the kinds the pages do not ask yet passed.
4. Desktop, Examples/kitchen-sink.json: "Don't ask again" on the first question.

On every page: nothing overflows horizontally (the document no wider than the viewport, no element's
right edge past it), no console error, no script (the pages work with JavaScript off: they have none,
and their Content-Security-Policy, checked once, allows none), a screenshot. Then each respondent's stored response is read
from the store (`survey responses export --format jsonl`) and compared with what was clicked.

Bounded: the whole run is stopped after --timeout seconds (default 240), each page load after 30 s;
every server and browser it starts is stopped before it exits. Prints `N passed, 0 failed` and exits 0
when every check held.
"""

import argparse
import glob
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

try:
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    sys.exit("browser-serve-test.py: selenium is not installed (python3 -m pip install selenium)")


class Failure(Exception):
    pass


class Timeout(Exception):
    pass


class Server:
    """One `survey serve` process on a free port of 127.0.0.1, over a SQLite store."""

    def __init__(self, binary, surveys, store, environment, log):
        self.log = open(log, "wb")
        self.process = subprocess.Popen(
            [binary, "serve", *surveys, "--listen", "127.0.0.1:0", "--store", store],
            stdout=subprocess.PIPE, stderr=self.log, env=environment, cwd=ROOT)
        ready, _, _ = select.select([self.process.stdout], [], [], 30)
        line = self.process.stdout.readline().decode() if ready else ""
        match = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        if not match:
            self.stop()
            raise Failure(f"survey serve printed no URL: {line!r}")
        self.url = match.group(1)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        self.log.close()


class Browser:
    """One headless Chromium with its own profile: one respondent."""

    PHONE = {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 1, "touch": True},
             "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                          "Chrome/120.0 Mobile Safari/537.36"}

    def __init__(self, name, args, work, phone=False, font_size=None):
        self.name = name
        self.shots = args.screenshots
        self.readme_screenshot = args.readme_screenshot
        self.count = 0
        options = webdriver.ChromeOptions()
        options.binary_location = args.chromium
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--no-first-run", "--disable-extensions", "--lang=en-US",
                     f"--user-data-dir={os.path.join(work, 'profile-' + name)}", "--window-size=1280,900"):
            options.add_argument(flag)
        preferences = {"intl.accept_languages": "en-US,en"}
        if font_size:
            preferences["webkit.webprefs.default_font_size"] = font_size
        options.add_experimental_option("prefs", preferences)
        if phone:
            options.add_experimental_option("mobileEmulation", self.PHONE)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(executable_path=args.chromedriver, log_output=os.path.join(work, f"driver-{name}.log"))
        self.driver = webdriver.Chrome(options=options, service=service)
        self.driver.set_page_load_timeout(30)
        self.viewport = None

    def quit(self):
        try:
            self.driver.quit()
        except WebDriverException:
            pass

    # What the page shows.

    def find(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def one(self, selector):
        found = self.find(selector)
        if not found:
            raise Failure(f"{self.name}: nothing matches {selector!r} on {self.heading()!r}\n{self.text()}")
        return found[0]

    def text(self):
        return self.driver.find_element(By.TAG_NAME, "body").text

    def heading(self):
        """The page's own title, else its first question's, else the survey's."""
        for selector in ("h2", "legend", "label.title", "h1"):
            found = [element.text for element in self.find(selector) if element.text]
            if found:
                return found[0]
        return ""

    def errors(self):
        return [element.text for element in self.find(".error") if element.text]

    def field(self, step_id):
        return self.one(f'[name="a:{step_id}"]')

    # What a person does.

    def open(self, url):
        self.driver.get(url)
        self.check_page()

    def reload(self):
        self.driver.refresh()
        self.check_page()

    def press(self, action):
        """Clicks the button `action` (next, back, dismiss) and waits for the page it leads to."""
        html = self.driver.find_element(By.TAG_NAME, "html")
        self.one(f'button[name="action"][value="{action}"]').click()
        WebDriverWait(self.driver, 30).until(lambda _: self.is_gone(html))
        WebDriverWait(self.driver, 30).until(
            lambda driver: driver.execute_script("return document.readyState") == "complete")
        self.check_page()

    @staticmethod
    def is_gone(element):
        """Whether `element` belongs to a page that was left (a new document replaced it)."""
        try:
            element.is_enabled()
            return False
        except WebDriverException:
            return True

    def choose(self, step_id, value):
        """Clicks the label of the choice `value` of `step_id`, as a finger or mouse would."""
        option = self.one(f'input[name="a:{step_id}"][value="{value}"]')
        label = option.find_element(By.XPATH, "./ancestor::label")
        label.click()
        if not option.is_selected():
            raise Failure(f"{self.name}: clicking the label of {step_id}={value} did not select it")

    def type(self, step_id, text, name=None):
        element = self.one(f'[name="{name or "a:" + step_id}"]')
        element.clear()
        element.send_keys(text)

    # Checks on every page.

    def check_page(self):
        self.count += 1
        if self.shots:
            slug = re.sub(r"[^a-z0-9]+", "-", self.heading().lower()).strip("-")[:40]
            self.driver.save_screenshot(os.path.join(self.shots, f"{self.name}-{self.count:02d}-{slug}.png"))
        overflow = self.driver.execute_script("""
            const width = document.documentElement.clientWidth;
            const wide = [];
            if (document.documentElement.scrollWidth > width) wide.push('document ' + document.documentElement.scrollWidth);
            for (const element of document.querySelectorAll('body *')) {
                const box = element.getBoundingClientRect();
                if (box.width > 0 && box.right > width + 0.5) wide.push(element.tagName + ' ' + Math.round(box.right));
            }
            return [width, wide];""")
        self.viewport = overflow[0]
        if overflow[1]:
            raise Failure(f"{self.name}: wider than the {overflow[0]} px viewport on {self.heading()!r}: "
                          f"{overflow[1][:5]}")
        # The pages work with JavaScript off: they have none (and their CSP allows none).
        if self.find("script, [onclick], [onsubmit], [onchange]"):
            raise Failure(f"{self.name}: a script on {self.heading()!r}")
        problems = [entry["message"] for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]
        if problems:
            raise Failure(f"{self.name}: console errors on {self.heading()!r}: {problems}")


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = []

    def expect(self, condition, message):
        if condition:
            self.passed += 1
        else:
            self.failed.append(message)
            print("FAIL: " + message, file=sys.stderr)


def stored(binary, survey, store, environment):
    """Every response of `survey` in `store`, by respondent id (`survey responses export`)."""
    result = subprocess.run(
        [binary, "responses", "export", survey, "--store", store, "--format", "jsonl"],
        capture_output=True, text=True, env=environment, cwd=ROOT, timeout=60)
    if result.returncode != 0:
        raise Failure(f"survey responses export failed: {result.stderr}")
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def onboarding_desktop(browser, server, checks):
    """The long path of the onboarding survey, with its errors, a branch, Back and reloads."""
    b = browser
    b.open(server.url)
    checks.expect(b.one("h1").text == "Getting started", f"the survey's title: {b.one('h1').text!r}")
    checks.expect("Welcome to Habitly" in b.text(), "the welcome page")
    checks.expect(not b.find('button[value="back"]'), "no Back on the first page")
    b.press("next")

    # Required: Next without an answer shows the error, tied to the question and focused.
    checks.expect(b.heading() == "How did you hear about us?", f"the discovery question: {b.heading()!r}")
    checks.expect("Question 1 of" in b.one(".progress").text, f"progress: {b.one('.progress').text!r}")
    b.press("next")
    checks.expect(b.errors() == ["Please answer this question."], f"the required error: {b.errors()}")
    fieldset = b.one("fieldset")
    error = b.one(".error")
    checks.expect(fieldset.get_attribute("aria-describedby") == error.get_attribute("id"),
                  "the error is the fieldset's description (aria-describedby)")
    checks.expect(fieldset.get_attribute("aria-invalid") == "true", "aria-invalid on the question")
    focused = b.driver.switch_to.active_element
    checks.expect(focused.get_attribute("name") == "a:discovery", "the focus is on the question in error")
    b.choose("discovery", "instagram")
    b.press("next")

    # The branch: Instagram brings its follow-up.
    checks.expect(b.heading() == "Where on Instagram did you see us?", f"the Instagram branch: {b.heading()!r}")
    b.choose("instagram-follow-up", "reel")
    b.press("next")

    # A page: the hidden question appears when "Work habits" is chosen.
    checks.expect(b.heading() == "About you", f"the About you page: {b.heading()!r}")
    checks.expect(not b.find('[name="a:team-size"]'), "team-size hidden at first")
    b.choose("goals", "fitness")
    b.choose("goals", "work")
    b.press("next")
    checks.expect(b.heading() == "About you" and bool(b.find('[name="a:team-size"]')),
                  f"team-size appears on the same page once Work habits is chosen: {b.heading()!r}")
    checks.expect(not b.errors(), f"no error shown for the question that appeared: {b.errors()}")
    checks.expect(b.one('input[name="a:goals"][value="work"]').is_selected(), "the goals kept")

    # Back: the earlier page with its answer; Next again.
    b.press("back")
    checks.expect(b.heading() == "Where on Instagram did you see us?", f"Back: {b.heading()!r}")
    checks.expect(b.one('input[name="a:instagram-follow-up"][value="reel"]').is_selected(),
                  "Back keeps the answer (A reel still chosen)")
    b.press("next")
    checks.expect(b.heading() == "About you", f"Next after Back: {b.heading()!r}")
    chosen = [e.get_attribute("value") for e in b.find('input[name="a:goals"]') if e.is_selected()]
    checks.expect(chosen == ["fitness", "work"], f"the page's answers kept: {chosen}")
    b.choose("team-size", b.find('input[name="a:team-size"]')[1].get_attribute("value"))
    team_size = [e.get_attribute("value") for e in b.find('input[name="a:team-size"]') if e.is_selected()][0]
    b.press("next")

    # A reload mid-survey, and the printed URL opened again: the same question.
    checks.expect(b.heading() == "How often do you build new habits?" or bool(b.find('[name="a:experience"]')),
                  f"the experience question: {b.heading()!r}")
    b.reload()
    checks.expect(bool(b.find('[name="a:experience"]')), f"a reload resumes at the same question: {b.heading()!r}")
    b.open(server.url)
    checks.expect(bool(b.find('[name="a:experience"]')), f"the URL again resumes: {b.heading()!r}")
    b.choose("experience", "sometimes")
    b.press("next")

    # Yes/no, then an e-mail address the pattern refuses; the text stays in the field.
    b.choose("tips-opt-in", "true")
    b.press("next")
    b.type("tips-email", "not an address")
    b.press("next")
    checks.expect(bool(b.errors()), "the refused e-mail address shows an error")
    email = b.field("tips-email")
    checks.expect(email.get_attribute("value") == "not an address",
                  f"the refused text is kept in the field: {email.get_attribute('value')!r}")
    checks.expect(email.get_attribute("aria-invalid") == "true", "aria-invalid on the refused field")
    checks.expect(b.driver.switch_to.active_element.get_attribute("name") == "a:tips-email",
                  "the focus is on the refused field")
    b.type("tips-email", "ada@example.com")
    b.press("next")
    checks.expect(not b.errors(), f"the fixed address is taken: {b.errors()}")
    checks.expect("Submit" in [e.text for e in b.find("button")], "the last page offers Submit")
    b.press("next")
    checks.expect("Thank you" in b.one("h1").text, f"the completion page: {b.one('h1').text!r}")

    # Not asked again.
    b.open(server.url)
    checks.expect(not b.find("form"), "a completed respondent gets no form again")
    return {"discovery": "instagram", "instagram-follow-up": "reel", "goals": ["fitness", "work"],
            "team-size": team_size, "experience": "sometimes", "tips-opt-in": True,
            "tips-email": "ada@example.com"}


def onboarding_phone(browser, server, checks):
    """The shortest path, on a phone."""
    b = browser
    b.open(server.url)
    b.press("next")
    b.choose("discovery", "google")
    b.press("next")
    if b.readme_screenshot:
        b.driver.save_screenshot(b.readme_screenshot)
    b.choose("goals", "sleep")
    b.press("next")
    b.choose("experience", "skip")
    b.press("next")
    checks.expect("Thank you" in b.one("h1").text, f"the skip branch completes: {b.one('h1').text!r}")
    return {"discovery": "google", "goals": ["sleep"], "experience": "skip"}


def kitchen_sink_phone(browser, server, checks):
    """Every kind the pages ask, with their validators, on a phone with large text."""
    b = browser
    b.open(server.url + "s/kitchen-sink")
    while not b.find('[name="a:nickname"]'):
        b.press("next")
    font = b.driver.execute_script("return getComputedStyle(document.body).fontSize")
    checks.expect(font == "32px", f"the page follows the browser's text size (32 px): {font}")
    # A number over its maximum: refused as typed; then the nickname's own validator, run on Next.
    b.type("nickname", "ada@example.com")
    b.type("household", "99")
    b.press("next")
    checks.expect(b.errors() == ["Enter a value of at most 20."], f"household's maximum: {b.errors()}")
    checks.expect(b.field("household").get_attribute("value") == "99", "the refused number is kept as typed")
    b.type("household", "3")
    b.press("next")
    checks.expect(b.errors() == ["A nickname, please, not an email address."], f"the nickname's validator: {b.errors()}")
    checks.expect(b.field("nickname").get_attribute("value") == "ada@example.com", "the refused nickname kept")
    b.type("nickname", "Ada")
    b.field("birthday").send_keys("04011990")  # typed as a person would, in the en-US order
    checks.expect(b.field("birthday").get_attribute("value") == "1990-04-01",
                  f"the date typed: {b.field('birthday').get_attribute('value')!r}")
    b.press("next")
    checks.expect(not b.find('[name="a:nickname"]'), f"the fixed page is taken: {b.errors()}")

    # Single choice with Other's text.
    other = [e for e in b.find('input[name="a:fruit"]') if "other" in (e.get_attribute("value") or "").lower()]
    checks.expect(bool(other), "the fruit question offers Other")
    b.choose("fruit", other[0].get_attribute("value"))
    b.type("fruit", "Quince", name="o:fruit")
    b.press("next")

    # Multiple choice over its maximum, then fixed.
    values = [e.get_attribute("value") for e in b.find('input[name="a:toppings"]')]
    regular = [v for v in values if v not in ("none",)]
    for value in regular[:4]:
        b.choose("toppings", value)
    b.press("next")
    checks.expect(any("at most" in error for error in b.errors()), f"toppings' maximum: {b.errors()}")
    chosen = [e.get_attribute("value") for e in b.find('input[name="a:toppings"]') if e.is_selected()]
    for value in chosen[2:]:
        b.one(f'input[name="a:toppings"][value="{value}"]').find_element(By.XPATH, "./ancestor::label").click()
    toppings = chosen[:2]
    b.press("next")

    answers = {"nickname": "Ada", "household": 3, "birthday": "1990-04-01", "fruit": "Quince",
               "toppings": toppings}
    # The rest: yes/no, numbers; the kinds not asked on pages yet are passed by.
    for _ in range(20):
        if b.find('[name="a:vegetarian"]'):
            b.choose("vegetarian", "true")
            answers["vegetarian"] = True
        for step, value in (("app-stars", "4"), ("spice", "6"), ("recommend", "9")):
            if b.find(f'[name="a:{step}"]'):
                b.type(step, value)
                answers[step] = int(value)
        # A matrix: each row a group of radio buttons (its fields are `a:importance/ROW`).
        if b.find('[name="a:importance/0"]'):
            rows = {0: "important", 1: "neutral", 2: "important"}
            for row, column in rows.items():
                b.choose(f"importance/{row}", column)
            answers["importance"] = {"price": "important", "speed": "neutral", "support": "important"}
        # A form: its required e-mail field refused empty-handed, then filled.
        if b.find('[name="a:contact/0"]'):
            b.type("contact/0", "Ada Lovelace")
            b.press("next")
            checks.expect(bool(b.errors()), f"the contact form without its required e-mail: {b.errors()}")
            checks.expect(b.field("contact/0").get_attribute("value") == "Ada Lovelace", "the form's name kept")
            b.type("contact/1", "ada@example.com")
            answers["contact"] = {"name": "Ada Lovelace", "email": "ada@example.com"}
        if "Thank you" in b.one("h1").text:
            break
        b.press("next")
        if b.errors():
            raise Failure(f"kitchen-sink page {b.heading()!r}: {b.errors()}")
    checks.expect("Thank you" in b.one("h1").text, f"kitchen-sink completed: {b.one('h1').text!r}")
    return answers


def kitchen_sink_dismiss(browser, server, checks):
    b = browser
    b.open(server.url + "s/kitchen-sink")
    b.press("dismiss")
    checks.expect("dismissed" in b.one("h1").text.lower(), f"the dismissed page: {b.one('h1').text!r}")
    return "dismissed"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--screenshots", help="a directory for a screenshot of every page (default: a temporary one)")
    parser.add_argument("--readme-screenshot", help="where to save the phone's About you page (the README's picture)")
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    parser.add_argument("--chromedriver", default=shutil.which("chromedriver"))
    parser.add_argument("--timeout", type=float, default=240)
    args = parser.parse_args()
    if not args.chromium or not args.chromedriver:
        sys.exit("browser-serve-test.py: chromium and chromedriver are needed (apt-get install chromium chromium-driver)")
    binary = os.path.abspath(args.binary)
    work = tempfile.mkdtemp(prefix="survey-browser-")
    if args.readme_screenshot:
        args.readme_screenshot = os.path.abspath(args.readme_screenshot)
    args.screenshots = os.path.abspath(args.screenshots or os.path.join(work, "screenshots"))
    os.makedirs(args.screenshots, exist_ok=True)
    environment = dict(os.environ, XDG_DATA_HOME=os.path.join(work, "xdg"), NO_COLOR="1", SE_AVOID_STATS="true")

    def expire(*_):
        raise Timeout(f"browser-serve-test.py: stopped after {args.timeout:g} s")

    signal.signal(signal.SIGALRM, expire)
    signal.alarm(int(args.timeout))
    checks = Checks()
    servers, browsers = [], []
    started = time.monotonic()
    try:
        onboarding_store = os.path.join(work, "onboarding.sqlite")
        sink_store = os.path.join(work, "kitchen-sink.sqlite")
        # The README's command, as it is, with a free port and a throwaway store.
        onboarding = Server(binary, ["Examples/onboarding.json"], onboarding_store, environment,
                            os.path.join(work, "serve-onboarding.log"))
        servers.append(onboarding)
        sink = Server(binary, ["Examples/kitchen-sink.json"], sink_store, environment,
                      os.path.join(work, "serve-kitchen-sink.log"))
        servers.append(sink)

        # JavaScript off is what the pages are: their policy allows no script at all.
        with urllib.request.urlopen(onboarding.url + "s/habitly-onboarding", timeout=30) as page:
            policy = page.headers.get("Content-Security-Policy", "")
        checks.expect("default-src 'none'" in policy and "script-src" not in policy,
                      f"the pages' Content-Security-Policy allows no script: {policy!r}")

        expected = {}
        runs = [
            ("desktop", {}, onboarding, onboarding_desktop),
            ("phone", {"phone": True}, onboarding, onboarding_phone),
            ("phone-large-text", {"phone": True, "font_size": 32}, sink, kitchen_sink_phone),
            ("desktop-dismiss", {}, sink, kitchen_sink_dismiss),
        ]
        for name, options, server, run in runs:
            browser = Browser(name, args, work, **options)
            browsers.append(browser)
            respondent = answers = None
            try:
                answers = run(browser, server, checks)
                respondent = next(c["value"] for c in browser.driver.get_cookies() if c["name"] == "survey-respondent")
                if options.get("phone"):
                    checks.expect(browser.viewport == 390, f"{name}: the phone's viewport is 390 px: {browser.viewport}")
            except Failure as failure:
                checks.expect(False, str(failure))
            finally:
                browser.quit()
            expected[name] = (respondent, answers)
            print(f"{name}: {browser.count} pages", flush=True)

        # The store has what was clicked.
        responses = stored(binary, "Examples/onboarding.json", onboarding_store, environment)
        responses += stored(binary, "Examples/kitchen-sink.json", sink_store, environment)
        by_respondent = {row["respondentId"]: row for row in responses}
        for name, (respondent, answers) in expected.items():
            row = by_respondent.get(f"web-{respondent}") if respondent and answers else None
            if row is None:
                checks.expect(False, f"{name}: no stored response for web-{respondent}")
                continue
            if answers == "dismissed":
                checks.expect(row["status"] == "dismissed", f"{name}: stored as dismissed: {row['status']}")
                continue
            checks.expect(row["status"] == "completed", f"{name}: stored as completed: {row['status']}")
            for step, value in answers.items():
                checks.expect(row["answers"].get(step) == value,
                              f"{name}: stored {step} = {row['answers'].get(step)!r}, clicked {value!r}")
        checks.expect(len(responses) == 5, f"5 responses stored, one per browser and the policy's: {len(responses)}")
        for server in servers:
            server.stop()
        for server, log in ((onboarding, "serve-onboarding.log"), (sink, "serve-kitchen-sink.log")):
            checks.expect(server.process.returncode == 0, f"{log}: survey serve stopped with {server.process.returncode}")
    except (Failure, Timeout) as failure:
        checks.expect(False, str(failure))
    finally:
        signal.alarm(0)
        for browser in browsers:
            browser.quit()
        for server in servers:
            server.stop()
        for profile in glob.glob(os.path.join(work, "profile-*")):
            shutil.rmtree(profile, ignore_errors=True)
    print(f"browser test: screenshots in {args.screenshots} ({time.monotonic() - started:.0f} s)")
    print(f"{checks.passed} passed, {len(checks.failed)} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
