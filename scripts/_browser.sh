# Sourced by scripts/test (bash). ensure_browser makes the system Chromium and its driver present
# for the browser tests (tests/test_web_browser.py): installed with apt when missing and this
# user is root. It never fails the script itself: when the browser cannot be had, the tests say so
# (with CI set they fail; elsewhere the summary says plainly that they did not run).

ensure_browser() {
    if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
        return 0
    fi
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        echo "Installing chromium and chromium-driver for the browser tests..." >&2
        if DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >/dev/null 2>&1 \
            || { apt-get update -q >/dev/null 2>&1 \
                 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >/dev/null 2>&1; }; then
            return 0
        fi
        echo "Could not install chromium with apt: the browser tests will not run." >&2
    else
        echo "No chromium here (install: apt-get install chromium chromium-driver): the browser tests will not run." >&2
    fi
    return 0
}
