"""The contract: pydantic models shared by the client and the sandbox, one module per API group."""

from .activity_log import *  # noqa: F403
from .agents import *  # noqa: F403
from .analytics import *  # noqa: F403
from .anonymization import *  # noqa: F403
from .business_hours import *  # noqa: F403
from .common import *  # noqa: F403
from .contact_endpoints import *  # noqa: F403
from .conversations import *  # noqa: F403
from .custom_attributes import *  # noqa: F403
from .endusers import *  # noqa: F403
from .flows import *  # noqa: F403
from .gateway import *  # noqa: F403
from .integrations import *  # noqa: F403
from .knowledge import *  # noqa: F403
from .links import *  # noqa: F403
from .messages import *  # noqa: F403
from .notes import *  # noqa: F403
from .organization import *  # noqa: F403
from .queues import *  # noqa: F403
from .ratings import *  # noqa: F403
from .search import *  # noqa: F403
from .tags import *  # noqa: F403
from .teams import *  # noqa: F403
from .templates import *  # noqa: F403
from .webhooks import *  # noqa: F403
