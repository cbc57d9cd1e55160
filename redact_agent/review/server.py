"""`redact-agent review OUT`: the review as a local web app (FastAPI, served by uvicorn).

One page of plain HTML, CSS and JavaScript shipped in `static/`, no CDN and no build step.
Safety: it binds to 127.0.0.1 unless told otherwise; every request needs the random token the
printed URL carries (a GET may carry it in the query, a POST only in the `X-Review-Token`
header, never a cookie), else 403; pages and images are looked up by id among the run's own
pages, so no request names a path; nothing a page holds is ever executed (values are shown as
text, never as HTML).
"""

from __future__ import annotations

import hmac
import secrets
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint

from redact_agent.errors import InputError
from redact_agent.images import png_bytes
from redact_agent.review.session import Review
from redact_agent.schema import default_schema

STATIC = Path(__file__).parent / "static"
HEADER = "X-Review-Token"
_ASSETS = {"app.js": "text/javascript", "app.css": "text/css"}


def new_token() -> str:
    return secrets.token_urlsafe(24)


class _Token(BaseHTTPMiddleware):
    def __init__(self, app: Any, token: str) -> None:
        super().__init__(app)
        self.token = token

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        given = request.headers.get(HEADER, "")
        if request.method == "GET" and not given:
            given = request.query_params.get("token", "")
        if not given or not hmac.compare_digest(given.encode(), self.token.encode()):
            return JSONResponse({"error": "forbidden: this review's token is missing or wrong"}, status_code=403)
        return await call_next(request)


def create_app(review: Review, token: str) -> FastAPI:
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(_Token, token=token)
    schema = default_schema()

    @app.exception_handler(InputError)
    async def _bad(request: Request, exc: InputError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=400)

    @app.get("/")
    def index() -> HTMLResponse:
        html = (STATIC / "index.html").read_text(encoding="utf-8").replace("{{TOKEN}}", token)
        headers = {"Content-Security-Policy": "default-src 'self'; img-src 'self' blob:; style-src 'self'"}
        return HTMLResponse(html, headers=headers)

    @app.get("/static/{name}")
    def asset(name: str) -> Response:
        if name not in _ASSETS:
            return JSONResponse({"error": "not found"}, status_code=404)
        return Response((STATIC / name).read_bytes(), media_type=_ASSETS[name])

    @app.get("/api/pages")
    def pages() -> dict[str, Any]:
        types = [{"name": t.name, "group": t.group} for t in schema.types]
        return {"pages": [p.summary() for p in review.pages.values()], "types": types}

    @app.get("/api/page")
    def page(id: str) -> dict[str, Any]:
        p = review.page(id)
        boxes = [vars(b) for b in p.boxes.values()]
        return {**p.summary(), "width": p.width, "height": p.height, "boxes": boxes, "undo": bool(p.history)}

    @app.get("/api/image")
    def image(id: str, kind: str = "original") -> Response:
        if kind == "redacted":
            review.page(id)  # only the run's own pages
            return Response((review.out_dir / f"{id}.redacted.png").read_bytes(), media_type="image/png")
        return Response(png_bytes(review.original(id).image, compress_level=1), media_type="image/png")

    @app.post("/api/act")
    async def act(request: Request) -> dict[str, Any]:
        body = await _json(request)
        change = {k: body[k] for k in ("bbox", "type", "origin", "value") if k in body}
        return review.act(str(body.get("page")), str(body.get("action")), body.get("box"), **change)

    @app.post("/api/search")
    async def search(request: Request) -> dict[str, Any]:
        body = await _json(request)
        names = [str(body["page"])] if body.get("page") else None
        for name in names or []:
            review.page(name)
        return {"hits": review.search(str(body.get("pattern", "")), bool(body.get("regex")), names)}

    @app.post("/api/apply")
    def apply() -> dict[str, Any]:
        return {"pages": review.apply()}

    return app


async def _json(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        raise InputError("the request body is not JSON") from None
    if not isinstance(body, dict):
        raise InputError("the request body is a JSON object")
    return body


def serve(out_dir: Path, host: str, port: int, open_browser: bool, announce: Any) -> None:
    """Run the review server until interrupted; `announce(url)` says where it is."""
    import socket

    import uvicorn

    review = Review(out_dir)
    token = new_token()
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}/?token={token}"
    announce(url)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    server = uvicorn.Server(uvicorn.Config(create_app(review, token), log_level="warning"))
    server.run(sockets=[sock])
