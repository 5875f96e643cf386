"""What the browser tests share: a phone's viewport, and a page's console errors."""
from __future__ import annotations

from typing import Any

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def watch_errors(page: Any) -> list[str]:
    """The page's console errors and uncaught exceptions, as they come; raises nothing."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def open_page(browser: Any, server: Any, token: str, device: dict[str, Any] = PHONE) -> tuple[Any, Any, list[str]]:
    """A new browser joined with that token: (context, page, console errors); raises playwright's Error."""
    context = browser.new_context(**device)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.url}/join?token={token}")
    return context, page, errors
