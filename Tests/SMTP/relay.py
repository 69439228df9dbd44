#!/usr/bin/python3
"""A real SMTP relay on loopback for the tests (aiosmtpd, Debian's python3-aiosmtpd; run with /usr/bin/python3).

Each message accepted is stored in --dir as NNNN.eml (the bytes received), NNNN.json (the envelope and what
Python's own MIME parser, email with policy=default, finds in it) and NNNN-K.png for each inline image, so the
tests check the message with a parser independent of the one under test. The JSON is written (and renamed into
place) before the relay answers 250, so a sender that got its 250 finds it at once.

Faults, chosen by recipient address: "tempfail" answers RCPT with 451, "permfail" answers RCPT with 550;
"tempfail-data" and "permfail-data" accept RCPT and answer the data with 451 or 554. --tempfail-first N answers
the first N messages' data with 451 (greylisting).

Binds 127.0.0.1 on a free port, prints the port on standard output once it answers, and runs until its standard
input closes (the test process ended or stopped it) or SIGTERM.
"""

import argparse
import asyncio
import json
import logging
import os
import ssl
import sys
import warnings
from email import policy
from email.parser import BytesParser

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class EphemeralPortController(Controller):
    """aiosmtpd's Controller bound to port 0: the port the kernel chose is read back before the controller's
    start-up check connects to it."""

    def _trigger_server(self):
        self.port = self.server.sockets[0].getsockname()[1]
        super()._trigger_server()


class StoringHandler:
    def __init__(self, directory, tempfail_first, data_delay, silent_quit=False):
        self.directory = directory
        self.tempfail_left = tempfail_first
        self.data_delay = data_delay
        self.silent_quit = silent_quit
        self.count = 0

    async def handle_QUIT(self, server, session, envelope):
        if self.silent_quit:
            await asyncio.sleep(3600)  # a relay that never says goodbye
        return "221 Bye"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if "tempfail" in address and "tempfail-data" not in address:
            return "451 4.3.0 Mailbox temporarily unavailable, try again later"
        if "permfail" in address and "permfail-data" not in address:
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if any("tempfail-data" in r for r in envelope.rcpt_tos):
            return "451 4.7.1 Message deferred, try again later"
        if any("permfail-data" in r for r in envelope.rcpt_tos):
            return "554 5.6.0 Message refused"
        if self.tempfail_left > 0:
            self.tempfail_left -= 1
            return "451 4.7.1 Greylisted, please try again"
        if self.data_delay > 0:
            # A relay that takes its time (queueing, scanning): the message is stored and answered after this,
            # even if the sender is gone by then.
            await asyncio.sleep(self.data_delay)
        self.count += 1
        name = "%04d" % self.count
        raw = envelope.original_content or envelope.content
        with open(os.path.join(self.directory, name + ".eml"), "wb") as f:
            f.write(raw)
        tls = session.ssl is not None or server.transport.get_extra_info("ssl_object") is not None
        summary = summarize(raw, name, self.directory)
        summary["envelope"] = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "tls": tls,
            "ehlo": session.host_name,
            "authenticated_as": session.auth_data if isinstance(session.auth_data, str) else None,
        }
        path = os.path.join(self.directory, name + ".json")
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            json.dump(summary, f, ensure_ascii=False, indent=1)
        os.rename(path + ".tmp", path)
        return "250 OK: queued as " + name


def summarize(raw, name, directory):
    """What Python's MIME parser sees: headers (decoded), the tree of content types, the bodies, the images."""
    message = BytesParser(policy=policy.default).parsebytes(raw)
    defects = [f"{type(d).__name__}" for d in message.defects]

    def tree(part):
        if part.is_multipart():
            return {"type": part.get_content_type(), "parts": [tree(p) for p in part.iter_parts()]}
        return {"type": part.get_content_type()}

    images = []
    for part in message.walk():
        defects += [f"{type(d).__name__}" for d in part.defects]
        if part.get_content_maintype() == "image":
            data = part.get_content()
            file = "%s-%d.png" % (name, len(images) + 1)
            with open(os.path.join(directory, file), "wb") as f:
                f.write(data)
            images.append(
                {
                    "content_id": part.get("Content-ID"),
                    "content_type": part.get_content_type(),
                    "disposition": part.get_content_disposition(),
                    "filename": part.get_filename(),
                    "file": file,
                    "size": len(data),
                }
            )
    text = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    return {
        "headers": {key: str(value) for key, value in message.items()},
        "structure": tree(message),
        # The parser keeps the wire's CRLF in decoded text; the tests compare with LF.
        "text": text.get_content().replace("\r\n", "\n") if text is not None else None,
        "html": html.get_content().replace("\r\n", "\n") if html is not None else None,
        "images": images,
        "defects": defects,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True, help="where received messages are stored")
    parser.add_argument("--cert", help="PEM certificate chain: offer STARTTLS (or implicit TLS) with it")
    parser.add_argument("--key", help="PEM private key of --cert")
    parser.add_argument("--implicit-tls", action="store_true", help="TLS from the first byte (smtps)")
    parser.add_argument("--auth", help="USER:PASSWORD: require AUTH (LOGIN or PLAIN, over TLS only)")
    parser.add_argument("--tempfail-first", type=int, default=0, help="answer the first N messages with 451")
    parser.add_argument("--data-delay-ms", type=int, default=0, help="wait this long before taking each message")
    parser.add_argument("--silent-quit", action="store_true", help="never answer QUIT")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    warnings.simplefilter("ignore", DeprecationWarning)  # aiosmtpd 1.4 reads its own deprecated login_data

    context = None
    if args.cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)

    kwargs = {}
    if args.auth:
        user, _, password = args.auth.partition(":")

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = (
                isinstance(auth_data, LoginPassword)
                and auth_data.login.decode() == user
                and auth_data.password.decode() == password
            )
            return AuthResult(success=ok, handled=False, auth_data=user if ok else None)

        kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=True)
    if context is not None and not args.implicit_tls:
        kwargs.update(tls_context=context, require_starttls=True)

    handler = StoringHandler(args.dir, args.tempfail_first, args.data_delay_ms / 1000, args.silent_quit)
    controller = EphemeralPortController(
        handler,
        hostname="127.0.0.1",
        port=0,
        server_hostname="relay.test",
        ssl_context=context if args.implicit_tls else None,
        **kwargs,
    )
    controller.start()
    print(controller.port, flush=True)
    try:
        sys.stdin.read()
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
