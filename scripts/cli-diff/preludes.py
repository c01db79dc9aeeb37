"""Preludes: commands run before a generated command (outcome not recorded) so that commands
whose interesting paths need prior state get exercised: a ride in progress, a filled cart, an
order, a sent email or message, a new event or contact, a saved flat, an exhausted city API
quota, new drive folders. Ids the prelude draws come from the fixed sequence (c0de…1, …2, …)
and are offered to the generated command as values."""

import json

GENERATED_IDS = ["c0de%028x" % n for n in (1, 2, 3)]
ID_KEYS = ["event_id", "contact_id", "email_id", "conversation_id", "message_id", "order_id",
           "apartment_id", "product_id", "item_id"]


def first(pools, key, default):
    vals = pools.get(key) or []
    return vals[0] if vals else default


def preludes(bin_name: str, pools) -> list[list[list[str]]]:
    """Prelude sequences (each a list of argv) for one app."""
    b = bin_name
    if b == "cabs":
        start = first(pools, "start_location", "Home")
        end = first(pools, "end_location", "Airport")
        order = [b, "order-ride", "--start-location", start, "--end-location", end, "--service-type", "Default"]
        return [[order], [order, [b, "update-ride-status", "--status", "IN_PROGRESS"]], [order, [b, "end-ride"]]]
    if b == "shopping":
        items = pools.get("item_id") or ["x"]
        cart = [b, "add-to-cart", "--item-id", items[0], "--quantity", "2"]
        return [[cart], [cart, [b, "checkout"]], [cart, [b, "checkout"], [b, "cancel-order", "--order-id", GENERATED_IDS[0]]]]
    if b == "emails":
        to = first(pools, "email", "someone@example.com")
        return [[[b, "send-email", "--recipients", json.dumps([to]), "--subject", "Hello", "--content", "Body"]],
                [[b, "create-and-add-email", "--sender", to, "--subject", "Ping", "--content", "Reply please"]]]
    if b in ("messages", "chats"):
        users = pools.get("user_id") or ["u1"]
        others = [u for u in users if u != first(pools, "current_user_id", "")]
        seqs = [[[b, "send-message", "--user-id", others[0] if others else users[0], "--content", "Hi there"]]]
        if len(others) >= 2:
            seqs.append([[b, "create-group-conversation", "--user-ids", json.dumps(others[:2]), "--title", "Trip"]])
        return seqs
    if b == "calendar":
        return [[[b, "add-event", "--title", "Review", "--start-datetime", "2024-10-16 10:00:00",
                  "--end-datetime", "2024-10-16 11:00:00", "--attendees", json.dumps((pools.get("full_names") or ["Ana"])[:2]),
                  "--tag", "Work"]]]
    if b == "contacts":
        return [[[b, "add-new-contact", "--first-name", "Ines", "--last-name", "Varga", "--email", "ines@example.com", "--age", "33"]]]
    if b == "rent-a-flat":
        apts = pools.get("apartment_id") or ["x"]
        return [[[b, "save-apartment", "--apartment-id", apts[-1]]],
                [[b, "add-new-apartment", "--name", "Sky Loft", "--location", "Centre", "--zip-code", "1000-001",
                  "--price", "1200", "--number-of-bedrooms", "2", "--number-of-bathrooms", "1", "--square-footage", "700"]]]
    if b == "city":
        call = [b, "get-crime-rate", "--zip-code", first(pools, "zip_code", "00000")]
        limit = int(float(first(pools, "api_call_limit", "100")))
        return [[call] * limit, [call] * (limit - 1)] if limit <= 10 else [[call] * 2]
    if b == "cloud-drive":
        return [[[b, "makedirs", "--path", "/Projects/2024/q3"], [b, "mkdir", "--path", "/Empty"]]]
    return []


def with_generated_ids(pools):
    out = {k: list(v) for k, v in pools.items()}
    for k in ID_KEYS:
        out[k] = GENERATED_IDS + out.get(k, [])
    out["drive_paths"] = ["/Projects/2024", "/Projects/2024/q3", "/Empty"] + out.get("drive_paths", [])
    return out
