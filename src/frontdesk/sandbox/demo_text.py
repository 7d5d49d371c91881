"""Words of the demo organisation: names, subjects and message templates (data only).

The seed and the simulator pick from these lists with their own random generator, so the
demo reads like a real help desk and stays deterministic. Templates use ``str.format``
fields: ``{first}`` (customer's first name), ``{agent}`` (agent's first name), ``{order}``,
``{tracking}``, ``{date}``, ``{weekday}``, ``{product}``, ``{amount}``, ``{city}``.

Some names and subjects are deliberately non-ASCII (Ærø, José, 東京). Nothing here contains
control characters or escape sequences: hostile text belongs to the security tests.
"""

from __future__ import annotations

DOMAIN = "acme-demo.example"
COMPANY = "Acme Demo"

FIRST_NAMES = (
    "Anna", "Ben", "Carla", "David", "Emma", "Felix", "Grace", "Hugo", "Ida", "Jonas",
    "Karin", "Liam", "Maja", "Noah", "Olivia", "Paul", "Quinn", "Rosa", "Sam", "Tara",
    "Uma", "Victor", "Wendy", "Xavier", "Yara", "Zoe", "José", "Zoë", "Björn", "Søren",
    "Åsa", "Łukasz", "Siobhán", "Renée", "François", "Mårten", "Yuki", "Haruto", "Aiko",
    "Priya", "Arjun", "Fatima", "Omar", "Chen", "Mei", "Ingrid", "Mateo", "Lucía",
)
LAST_NAMES = (
    "Andersen", "Brown", "Clark", "Dubois", "Evans", "Fischer", "García", "Hansen",
    "Ivanova", "Jensen", "Kowalski", "Larsen", "Martin", "Nielsen", "O'Brien", "Petersen",
    "Quist", "Rossi", "Schmidt", "Taylor", "Urbán", "Vega", "Weber", "Young", "Zimmermann",
    "Ærø", "Østergaard", "Müller", "Núñez", "Sørensen", "Łęcki", "Åberg", "Tanaka",
    "Suzuki", "Sato", "Patel", "Haddad", "Wang", "Li", "田中", "山本",
)
MIDDLE_NAMES = ("Marie", "Lou", "James", "Kristian", "Ann", "Maria")

LANGUAGES = ("en", "en", "en", "da", "de", "es", "ja", "fr")

AGENT_NAMES = (
    ("Alice", "Holm"), ("Bashir", "Rahimi"), ("Camille", "Laurent"), ("Dmitri", "Volkov"),
    ("Elena", "Costa"), ("Frederik", "Bang"), ("Gemma", "Reid"), ("Henrik", "Lund"),
    ("Isabel", "Moreno"), ("Jakob", "Friis"), ("Kenji", "Watanabe"), ("Lena", "Krause"),
    ("Mads", "Kjær"), ("Nora", "Lindqvist"), ("Oscar", "Hedlund"), ("Pia", "Dahl"),
    ("Rasmus", "Winther"), ("Sofia", "Almeida"), ("Tobias", "Berg"), ("Ulla", "Skov"),
    ("Viktor", "Nyström"), ("Wiebke", "Hartmann"), ("Yusuf", "Demir"),
)

TEAM_NAMES = ("Tier 1 Support", "Tier 2 Support", "Billing", "Partners 東京")

QUEUE_NAMES = ("General", "Billing", "Technical", "VIP", "Nordics")

TAG_NAMES = (
    "billing", "refund", "invoice", "shipping", "delivery-delay", "damaged", "returns",
    "warranty", "router", "switch", "firmware", "login", "password-reset", "2fa",
    "feature-request", "bug", "urgent", "vip", "churn-risk", "upsell", "complaint",
    "praise", "spam", "duplicate", "escalated", "waiting-on-customer", "waiting-on-vendor",
    "onboarding", "cancellation", "gdpr", "legal", "partner", "press", "b2b", "b2c",
    "nordics", "東京", "ærø-store", "legacy-import", "test",
)
TAG_COLORS = (
    "#E53935", "#D81B60", "#8E24AA", "#3949AB", "#1E88E5", "#00897B", "#43A047",
    "#FDD835", "#FB8C00", "#6D4C41", "#546E7A", "#000000",
)

PRODUCTS = ("router", "switch", "access point", "billing portal", "mobile app", "installation")
CITIES = ("Copenhagen", "Aarhus", "Ærøskøbing", "New York", "Madrid", "東京", "Berlin", "Lyon")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")

SUBJECTS = (
    "Router keeps dropping the connection",
    "Invoice {order} looks wrong",
    "Delivery to our 東京 office",
    "Refund for order {order}",
    "Opening hours of the Ærø store",
    "Can't log in to the billing portal",
    "Question about my subscription",
    "Switch arrived damaged",
    "Password reset email never arrives",
    "Change of address for José's account",
    "Firmware update failed halfway",
    "Where is my package? (tracking {tracking})",
    "Request: dark mode in the mobile app",
    "Cancel my contract, please",
    "Two-factor codes are not accepted",
    "Bulk order for the {city} branch",
    "Re: your recent support experience",
    "Warranty claim for access point",
)

#: What customers write in chats, SMS and WhatsApp (plain text).
CUSTOMER_LINES = (
    "Hi, my {product} stopped working this morning.",
    "Hello! Is anyone there?",
    "I ordered on {weekday} and still have nothing. Order {order}.",
    "The tracking number {tracking} says delivered, but it isn't here.",
    "Thanks, that worked!",
    "Still the same problem, I'm afraid.",
    "Can I get a refund instead?",
    "I've restarted it twice already.",
    "Ok, one moment please.",
    "Great, thank you so much for the quick help 🙏",
    "My invoice says {amount} but I was quoted less.",
    "Is the store in {city} open on Saturday?",
    "I can't find the settings page you mentioned.",
    "Perfect. Have a nice day!",
    "Hmm, now it says 'error 0x2F' when I log in.",
    "Could you call me back instead?",
    "Sorry for the late reply, I was travelling.",
    "Hej! Jeg har et spørgsmål om min ordre {order}.",
    "Hola, ¿pueden ayudarme con la factura?",
    "こんにちは、ルーターが動きません。",
    "Yes, the light is blinking orange.",
    "No, I haven't changed anything.",
)

#: Agent replies in Markdown: together they use every construct the service supports
#: (bold, italic, bold italic, strikethrough, blockquote, ordered and unordered lists,
#: inline code).
AGENT_MARKDOWN = (
    "Hi {first}, thanks for reaching out! I've **escalated** this to our hardware team.",
    "Could you try these steps?\n\n1. Unplug the {product}\n2. Wait _30 seconds_\n"
    "3. Plug it back in and wait for the **green** light",
    "Here is what I found:\n\n- Your order **{order}** shipped on {weekday}\n"
    "- Tracking: `{tracking}`\n- Expected delivery: _{date}_",
    "> {quote}\n\nI understand, and that is ***really*** not the experience we want for you.",
    "Good news: the price was ~~{amount}~~ and is now **reduced by 20%** for you.",
    "Please run `ping 192.0.2.1` in a terminal and send me the output.",
    "***Important:*** your subscription renews on {date}. Nothing to do if you want to keep "
    "it.",
    "I've issued the refund. You'll see it within _3-5 business days_.",
    "Thanks for your patience, {first}! Anything else I can help with?",
    "Our {city} store is open:\n\n- Mon-Fri: 09:00-17:30\n- Sat: 10:00-14:00\n"
    "- Sun: ~~open~~ closed",
    "To reset your password:\n\n1. Open the **sign-in** page\n2. Choose _Forgot password_\n"
    "3. Use the code from the email (it looks like `123-456`)",
    "> {quote}\n\nGood point — I've passed this on as a **feature request**.",
)

#: Customer emails as HTML paragraphs (formatted, then wrapped by the seed).
CUSTOMER_EMAIL_PARAGRAPHS = (
    "I'm writing about order {order}. It was supposed to arrive on {weekday}, "
    "but nothing has come yet.",
    "My {product} has been unreliable since the last update. It disconnects every hour.",
    "The invoice I received lists {amount}, which is more than we agreed.",
    "Could you please confirm my new address in {city}?",
    "I have attached a photo of the damaged box.",
    "Thank you for the help last week, everything works now.",
    "Please cancel my subscription at the end of the month.",
)

#: Agent emails: HTML fragments with emphasis, lists and quotes.
AGENT_EMAIL_PARAGRAPHS = (
    "Thank you for contacting {company}. I have looked into your case.",
    "Your order <strong>{order}</strong> is on its way; the tracking number is "
    "<code>{tracking}</code>.",
    "Please try the following:</p><ol><li>Restart the {product}</li><li>Update the "
    "firmware</li><li>Reply to this email with the result</li></ol><p>",
    "I have credited <strong>{amount}</strong> to your account. <em>No action is needed "
    "on your side.</em>",
    "Our store in {city} is open <em>Monday to Friday</em>, 09:00 to 17:30.",
    "You can read more on <a href=\"https://help.acme-demo.example/articles/42\">our help "
    "centre</a>.",
)

QUOTES = (
    "The router worked fine until yesterday.",
    "I've been waiting for two weeks now.",
    "It would be great if the app had a dark mode.",
    "Nobody answered my last email.",
)

ATTACHMENT_NAMES = (
    "invoice-{order}.pdf", "photo-of-damage.jpg", "screenshot.png", "contract.docx",
    "Ærø-kvittering.pdf", "router-log.txt", "price-list.xlsx", "slides.pptx",
)
#: WhatsApp allows only these kinds of attachment.
WHATSAPP_ATTACHMENT_NAMES = ("photo-of-damage.jpg", "screenshot.png", "invoice-{order}.pdf")

RATING_COMMENTS = (
    "Quick and friendly, thanks!", "Took a while, but solved.", "Not solved yet.",
    "Fantastisk service!", "Muy amable.", "The agent was very patient.", "Meh.",
)

BROWSERS = (
    ("Firefox", "133.0"), ("Chrome", "131.0.6778.86"), ("Safari", "18.1"), ("Edge", "131.0"),
)

USER_AGENT_PAGES = (
    "https://acme-demo.example/help", "https://acme-demo.example/shop/routers",
    "https://acme-demo.example/account/billing", "https://acme-demo.example/ja/support",
)
