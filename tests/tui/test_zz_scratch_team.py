from frontdesk.tui.screens.team import TeamScreen

async def test_quick(console) -> None:
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        await pilot.press("3")
        await pilot.pause()
        assert isinstance(app.screen, TeamScreen)
        await app.session.live.refresh("team:presence")
        await app.session.live.refresh("team:list")
        await pilot.pause()
        print(app.export_screenshot()[:100])
        from rich.console import Console
        lines = app.screen._compositor.render_update(full=True)
        c = Console(width=100, record=True, file=open("/dev/null","w"))
        c.print(lines)
        print(c.export_text())
        print(app.session.live.stats())
