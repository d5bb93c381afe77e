#!/usr/bin/python3
"""Print the desktop app's accessibility tree as a Linux screen reader sees it.

Usage: tools/a11y-dump.py [--keys "ctrl+1 Right Right"] [--size WxH] FILE

Runs the app on FILE on a private, headless X server (Xvfb) inside its own
D-Bus session with the accessibility bus switched on, optionally sends keys
with xdotool, then walks the AT-SPI tree (pyatspi, the library Orca uses) and
prints one line per node: its depth, role, name, and text or description.
Afterwards it prints the events a screen reader would hear (focus changes,
text and name changes of live regions) from the moment the keys were sent.

Environment: MOJISCOPE_BIN, the binary (default target/debug/mojiscope).
Needs (Debian): xvfb, xdotool, at-spi2-core, python3-pyatspi, dbus.
Exit status: 0, or 1 when the app's window never appeared on the bus.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time


def in_session(argv):
    """Re-runs this script in a new D-Bus session with the a11y bus on."""
    if os.environ.get("MOJISCOPE_A11Y_SESSION") == "1":
        return False
    env = dict(os.environ, MOJISCOPE_A11Y_SESSION="1")
    command = [
        "dbus-run-session",
        "--",
        "sh",
        "-c",
        "busctl --user set-property org.a11y.Bus /org/a11y/bus "
        "org.a11y.Status IsEnabled b true && exec \"$0\" \"$@\"",
        sys.executable,
        os.path.abspath(__file__),
    ] + argv
    sys.exit(subprocess.call(command, env=env))


def start_x(size):
    """Starts Xvfb on a free display; returns the process and the display."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", size + "x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    display = os.read(read, 16).decode().strip()
    os.close(read)
    return xvfb, ":" + display


def find_app(pyatspi, name, seconds):
    """The app's accessible, once it is on the bus."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        desktop = pyatspi.Registry.getDesktop(0)
        for index in range(desktop.childCount):
            app = desktop.getChildAtIndex(index)
            if app is not None and name in (app.name or ""):
                return app
        time.sleep(0.5)
    return None


def text_of(node):
    """The node's text (AT-SPI Text interface) or its description."""
    try:
        text = node.queryText()
        return text.getText(0, text.characterCount)
    except NotImplementedError:
        return node.description or ""
    except Exception:  # noqa: BLE001 - a node that went away mid-walk
        return ""


def dump(node, depth=0, out=sys.stdout):
    try:
        role = node.getRoleName()
        name = node.name or ""
        states = node.getState()
    except Exception:  # noqa: BLE001 - a node that went away mid-walk
        return
    import pyatspi

    marks = []
    if states.contains(pyatspi.STATE_FOCUSED):
        marks.append("focused")
    if states.contains(pyatspi.STATE_SELECTED):
        marks.append("selected")
    text = text_of(node)
    line = "  " * depth + role
    if name:
        line += f" {name!r}"
    if text and text != name:
        line += f" text={text!r}"
    if marks:
        line += " [" + ", ".join(marks) + "]"
    print(line, file=out)
    for index in range(node.childCount):
        child = node.getChildAtIndex(index)
        if child is not None:
            dump(child, depth + 1, out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--keys", default="", help="xdotool key list to send first")
    parser.add_argument("--size", default="1280x800")
    parser.add_argument("--wait", type=float, default=8.0, help="seconds for the app to start")
    args = parser.parse_args()
    in_session(sys.argv[1:])

    import pyatspi

    binary = os.environ.get("MOJISCOPE_BIN", "target/debug/mojiscope")
    xvfb, display = start_x(args.size)
    runtime = tempfile.mkdtemp(prefix="a11y-dump.")
    os.chmod(runtime, 0o700)
    env = dict(os.environ, DISPLAY=display, XDG_RUNTIME_DIR=runtime)
    env.pop("WAYLAND_DISPLAY", None)
    app = subprocess.Popen(
        [binary, args.file],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    heard = []

    def listener(event):
        name = event.source.name if event.source is not None else ""
        heard.append(f"{event.type} {event.detail1} {name!r} {str(event.any_data)[:120]!r}")

    try:
        accessible = find_app(pyatspi, "mojiscope", args.wait * 3)
        if accessible is None:
            print("a11y-dump: the app never appeared on the accessibility bus", file=sys.stderr)
            return 1
        time.sleep(args.wait)
        for kind in ("object:state-changed:focused", "object:text-changed", "object:property-change:accessible-name"):
            pyatspi.Registry.registerEventListener(listener, kind)
        if args.keys:
            xenv = dict(os.environ, DISPLAY=display)
            window = subprocess.run(
                ["xdotool", "search", "--onlyvisible", "--pid", str(app.pid)],
                env=xenv, capture_output=True, text=True, check=False,
            ).stdout.split()
            if window:
                subprocess.run(["xdotool", "windowfocus", "--sync", window[0]], env=xenv, check=False)
            subprocess.run(["xdotool", "key", "--delay", "150"] + args.keys.split(), env=xenv, check=False)
            # Let the events arrive: they are dispatched by GLib's main
            # context, which nothing else iterates here.
            from gi.repository import GLib

            context = GLib.MainContext.default()
            end = time.time() + 3
            while time.time() < end:
                while context.iteration(False):
                    pass
                pyatspi.Registry.pumpQueuedEvents()
                time.sleep(0.05)
        dump(accessible)
        if heard:
            print("\nHeard:")
            for line in heard:
                print("  " + line)
        return 0
    finally:
        os.killpg(app.pid, 15)
        app.wait(timeout=10)
        xvfb.terminate()
        xvfb.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
